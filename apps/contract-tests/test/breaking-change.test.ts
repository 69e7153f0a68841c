// The breaking-change gate on the real contract, and fixtures proving what it catches: each
// fixture is the current bundled contract with one edit, compared with the unedited bundle.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { deref, specOperations } from "@animal-store/openapi";
import { afterAll, describe, expect, it } from "vitest";
import { type AcceptedChange, readAcceptedChanges } from "../src/accepted-changes.js";
import { checkBreakingChanges } from "../src/breaking-change-gate.js";
import {
  acceptedChangesPath,
  bundledContractPath,
  releasedContractsDir,
} from "../src/contract-paths.js";
import {
  latestReleasedContract,
  listReleasedContracts,
  readContractVersion,
} from "../src/contract-version.js";

// biome-ignore lint/suspicious/noExplicitAny: fixtures edit the spec as plain JSON.
type Json = any;

const current = bundledContractPath();
const scratch = mkdtempSync(join(tmpdir(), "breaking-change-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes the current contract with one edit applied; returns its path. */
function fixture(name: string, edit: (spec: Json) => void): string {
  const spec = JSON.parse(readFileSync(current, "utf8"));
  edit(spec);
  const path = join(scratch, `${name.replace(/\W+/g, "-")}.json`);
  writeFileSync(path, JSON.stringify(spec, null, 2));
  return path;
}

const schemas = (s: Json): Record<string, Json> => s.components.schemas;
// The paths the newest released contract has: removing one added since would break no client of
// it (the CLI compares with that copy), so the path-removal fixture takes one of these.
const releasedPaths = new Set(
  Object.keys(
    JSON.parse(readFileSync(latestReleasedContract(releasedContractsDir()).path, "utf8")).paths,
  ),
);
const operationsOf = (s: Json) => specOperations(s);

/** The first entry `pick` finds, or a failure naming what the contract no longer has. */
function first<T>(found: T | undefined, what: string): T {
  if (found === undefined)
    throw new Error(`the contract has no ${what}: the fixture would test nothing`);
  return found;
}

/** Names of the component schemas a request body uses, and those a response uses. */
function bodySchemaNames(s: Json, side: "request" | "response"): string[] {
  const names = new Set<string>();
  for (const op of operationsOf(s)) {
    const contents =
      side === "request"
        ? [op.requestBody?.content]
        : Object.values(op.operation.responses as Json).map((r: Json) => deref(s, r).content);
    for (const content of contents) {
      const ref = (content as Json)?.["application/json"]?.schema?.$ref;
      if (typeof ref === "string") names.add(ref.split("/").pop() as string);
    }
  }
  return [...names];
}

/** An object schema used by `side` with a property that is not required, and that property. */
function optionalPropertyOf(s: Json, side: "request" | "response"): [string, string] {
  for (const name of bodySchemaNames(s, side)) {
    const schema = schemas(s)[name];
    const optional = Object.keys(schema?.properties ?? {}).find(
      (p) => !(schema.required ?? []).includes(p),
    );
    if (optional) return [name, optional];
  }
  throw new Error(`no ${side} body has an optional property: the fixture would test nothing`);
}

const breaking: [why: string, rule: string, edit: (s: Json) => void][] = [
  [
    "removing an enum value",
    "enum-values-removed",
    (s) => {
      const schema = first(
        Object.values(schemas(s)).find((x) => Array.isArray(x.enum) && x.enum.length > 1),
        "enum schema",
      );
      schema.enum = schema.enum.slice(0, -1);
    },
  ],
  [
    "making a request property required",
    "required-properties-added",
    (s) => {
      const [name, property] = optionalPropertyOf(s, "request");
      schemas(s)[name].required = [...(schemas(s)[name].required ?? []), property];
    },
  ],
  [
    "removing an operation",
    "operation-removed",
    (s) => {
      const ops = operationsOf(s);
      const op = first(
        ops.find((o) => ops.filter((other) => other.path === o.path).length > 1),
        "path with two operations",
      );
      delete s.paths[op.path][op.method.toLowerCase()];
    },
  ],
  [
    "removing a path",
    "path-removed",
    (s) => {
      const released = Object.keys(s.paths).filter((path) => releasedPaths.has(path));
      delete s.paths[first(released.at(-1), "released path")];
    },
  ],
  [
    "removing a documented response status",
    "response-removed",
    (s) => {
      const op = first(
        operationsOf(s).find((o) => o.statuses.some((status) => status.startsWith("4"))),
        "operation with a 4xx response",
      );
      const status = op.statuses.find((x) => x.startsWith("4")) as string;
      delete (op.operation as Json).responses[status];
    },
  ],
  [
    "adding a required query parameter",
    "parameter-became-required",
    (s) => {
      const op = first(
        operationsOf(s).find((o) => o.method === "GET"),
        "GET operation",
      ).operation as Json;
      op.parameters = [
        ...(op.parameters ?? []),
        { name: "fixtureOnlyOwner", in: "query", required: true, schema: { type: "string" } },
      ];
    },
  ],
  [
    "narrowing a constraint (maxLength halved)",
    "schema-constraint-changed",
    (s) => {
      const schema = first(
        Object.values(schemas(s)).find((x) => typeof x.maxLength === "number" && x.maxLength > 1),
        "schema with a maxLength",
      );
      schema.maxLength = Math.floor(schema.maxLength / 2);
    },
  ],
  [
    "changing a type (integer → string)",
    "schema-type-changed",
    (s) => {
      const schema = first(
        Object.values(schemas(s)).find((x) => x.type === "integer"),
        "integer schema",
      );
      schema.type = "string";
    },
  ],
  [
    "removing a response property",
    "property-removed",
    (s) => {
      const [name, property] = optionalPropertyOf(s, "response");
      delete schemas(s)[name].properties[property];
    },
  ],
];

describe("breaking-change gate on the real contract", () => {
  it("the current contract passes against the newest released copy", async () => {
    const latest = latestReleasedContract(releasedContractsDir());
    const verdict = await checkBreakingChanges(latest.path, current);
    expect(verdict.passed, verdict.report).toBe(true);
    const majorOf = (version: string) => Number(String(version).split(".")[0]);
    if (majorOf(readContractVersion(current)) === majorOf(latest.version)) {
      // Additive: paging added a parameter, a header and error codes, and broke nothing.
      expect(verdict.counts.major, verdict.report).toBe(0);
    } else {
      // A breaking edit with its major version (pnpm api-version major): allowed, and reported.
      expect(verdict.majorBump, verdict.report).toBe(true);
    }
    expect(verdict.report).toContain(`${latest.version} (released)`);
  });

  it("every released copy is named after its own info.version, 1.0.0 included", () => {
    const released = listReleasedContracts(releasedContractsDir());
    expect(released.map((r) => r.version)).toContain("1.0.0");
    for (const { version, path } of released) expect(readContractVersion(path)).toBe(version);
  });
});

describe("breaking-change fixtures", () => {
  it.concurrent.each(breaking)("fails on %s (%s)", async (why, rule, edit) => {
    const verdict = await checkBreakingChanges(current, fixture(why, edit));
    expect(verdict.passed, verdict.report).toBe(false);
    expect(verdict.breakingChanges.map((c) => c.ruleId)).toContain(rule);
    expect(verdict.report).toContain(`BREAKING ${rule}`);
    const major = Number(String(readContractVersion(current)).split(".")[0]);
    expect(verdict.report).toContain(`set info.version to ${major + 1}.0.0`);
  });

  it.concurrent("passes on adding an optional response property, rated minor", async () => {
    const revision = fixture("optional-response-property", (s) => {
      const [name] = optionalPropertyOf(s, "response");
      // A property the schema already has would make this fixture compare a spec with itself.
      expect(schemas(s)[name].properties).not.toHaveProperty("fixtureOnlyNickname");
      schemas(s)[name].properties.fixtureOnlyNickname = { type: "string", description: "New." };
    });
    const verdict = await checkBreakingChanges(current, revision);
    expect(verdict.passed, verdict.report).toBe(true);
    expect(verdict.counts).toMatchObject({ major: 0 });
    expect(verdict.counts.minor).toBeGreaterThan(0);
  });

  /** A property of a component schema marked `x-open-enum`, and a fixture adding one value. */
  const openEnumEdit = (keepOpen: boolean) => (s: Json) => {
    const found = Object.values(schemas(s))
      .flatMap((schema) => Object.values((schema.properties ?? {}) as Record<string, Json>))
      .find((property) => property["x-open-enum"] === true && Array.isArray(property.enum));
    const property = first(found, "property marked x-open-enum");
    property.enum = [...property.enum, "fixture_only_code"];
    if (!keepOpen) delete property["x-open-enum"];
  };

  it.concurrent("passes on a value added to an open enum (x-open-enum), rated minor", async () => {
    const verdict = await checkBreakingChanges(current, fixture("open-enum", openEnumEdit(true)));
    expect(verdict.passed, verdict.report).toBe(true);
    expect(verdict.counts.major).toBe(0);
    expect(verdict.counts.minor).toBeGreaterThan(0);
  });

  it.concurrent("fails on the same value added to that enum once it is no longer open", async () => {
    const verdict = await checkBreakingChanges(
      current,
      fixture("closed-enum", openEnumEdit(false)),
    );
    expect(verdict.passed, verdict.report).toBe(false);
    expect(verdict.breakingChanges.map((c) => c.ruleId)).toContain("enum-values-added");
  });

  it.concurrent("a major bump lets a breaking change pass, and reports it", async () => {
    const revision = fixture("major-bump", (s) => {
      breaking[0]?.[2](s);
      s.info.version = `${Number(String(s.info.version).split(".")[0]) + 1}.0.0`;
    });
    const verdict = await checkBreakingChanges(current, revision);
    expect(verdict.passed, verdict.report).toBe(true);
    expect(verdict.majorBump).toBe(true);
    expect(verdict.report).toContain("BREAKING enum-values-removed");
  });

  it.concurrent("a minor bump does not let a breaking change pass", async () => {
    const revision = fixture("minor-bump", (s) => {
      breaking[2]?.[2](s);
      const [major, minor] = String(s.info.version).split(".").map(Number);
      s.info.version = `${major}.${(minor ?? 0) + 1}.0`;
    });
    const verdict = await checkBreakingChanges(current, revision);
    expect(verdict.passed, verdict.report).toBe(false);
  });

  it.concurrent("a version that goes backwards fails even without changes", async () => {
    const revision = fixture("backwards", (s) => {
      const [major] = String(s.info.version).split(".").map(Number);
      s.info.version = major && major > 0 ? `${major - 1}.9.0` : "0.0.0-0";
    });
    const verdict = await checkBreakingChanges(current, revision);
    expect(verdict.passed).toBe(false);
    expect(verdict.report).toContain("went backwards");
  });
});

describe("accepted fixes (planted fault: the accepted list ignored)", () => {
  const narrowed = "^[^\\u0000-\\u001F\\u007F-\\u00FF]+$";
  const pointer = "#/components/schemas/PetName/pattern";
  const revision = () =>
    fixture("narrowed-pattern", (s) => {
      schemas(s).PetName.pattern = narrowed;
    });
  const entry = (to: string): AcceptedChange => ({
    pointer,
    ruleId: "schema-constraint-changed",
    to,
    rating: "patch",
    reason: "the description already said so",
  });

  it("rates a listed change as its entry says, and says so in the report", async () => {
    const verdict = await checkBreakingChanges(current, revision(), [entry(narrowed)]);
    expect(verdict.passed, verdict.report).toBe(true);
    expect(verdict.counts.major).toBe(0);
    expect(verdict.report).toContain(`ACCEPTED as patch schema-constraint-changed (${pointer})`);
  });

  it("still fails an unlisted major change: none listed, or another value at the same place", async () => {
    for (const accepted of [[], [entry("^[^\\u0000-\\u001F]+$")]]) {
      const verdict = await checkBreakingChanges(current, revision(), accepted);
      expect(verdict.passed, verdict.report).toBe(false);
      expect(verdict.breakingChanges.map((c) => c.pointer)).toContain(pointer);
    }
  });

  it("reads openapi/accepted-changes.yaml, each entry with its reason, and refuses a malformed one", () => {
    for (const change of readAcceptedChanges(acceptedChangesPath())) {
      expect(change.reason.length, change.pointer).toBeGreaterThan(20);
    }
    const bad = join(scratch, "accepted-bad.yaml");
    writeFileSync(
      bad,
      "accepted:\n  - pointer: '#/x'\n    ruleId: r\n    to: y\n    rating: major\n    reason: z\n",
    );
    expect(() => readAcceptedChanges(bad)).toThrow("accepted[0].rating must be minor or patch");
  });
});

describe("breaking-change CLI (dist, built before tests by turbo)", () => {
  const cli = new URL("../dist/breaking-change-cli.js", import.meta.url).pathname;
  const run = promisify(execFile);

  it.concurrent("exits 0 on the real contract and 1 with the report on a breaking fixture", async () => {
    const ok = await run(process.execPath, [cli]);
    expect(ok.stdout).toContain("(current)");
    // Under the newest released version: a major already bumped would let the change pass.
    const released = latestReleasedContract(releasedContractsDir()).version;
    const removePath = breaking[3]?.[2] as (s: Json) => void;
    const revision = fixture("cli-breaking", (s) => {
      removePath(s);
      s.info.version = released;
    });
    const failed = await run(process.execPath, [cli, "--revision", revision]).then(
      () => ({ code: 0, stdout: "" }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain("BREAKING path-removed");
  });
});
