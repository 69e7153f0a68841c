// The breaking-change gate on the real contract, and fixtures proving what it catches: each
// fixture is the current bundled contract with one edit, compared with the unedited bundle.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { checkBreakingChanges } from "../src/breaking-change-gate.js";
import { bundledContractPath, releasedContractsDir } from "../src/contract-paths.js";
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

const schemas = (s: Json) => s.components.schemas;

const breaking: [why: string, rule: string, edit: (s: Json) => void][] = [
  [
    "removing an enum value (PetStatus sold)",
    "enum-values-removed",
    (s) => {
      schemas(s).PetStatus.enum = ["available", "pending"];
    },
  ],
  [
    "making a request property required (NewPet.status)",
    "required-properties-added",
    (s) => {
      schemas(s).NewPet.required.push("status");
    },
  ],
  [
    "removing an operation (createPet)",
    "operation-removed",
    (s) => {
      delete s.paths["/pets"].post;
    },
  ],
  [
    "removing a path (getPet)",
    "path-removed",
    (s) => {
      delete s.paths["/pets/{petId}"];
    },
  ],
  [
    "removing a documented response status",
    "response-removed",
    (s) => {
      delete s.paths["/pets"].get.responses["400"];
    },
  ],
  [
    "adding a required query parameter",
    "parameter-became-required",
    (s) => {
      s.paths["/pets"].get.parameters.push({
        name: "owner",
        in: "query",
        required: true,
        schema: { type: "string" },
      });
    },
  ],
  [
    "narrowing a constraint (name maxLength 100 → 50)",
    "schema-constraint-changed",
    (s) => {
      schemas(s).PetName.maxLength = 50;
    },
  ],
  [
    "changing a type (categoryId integer → string)",
    "schema-type-changed",
    (s) => {
      schemas(s).CategoryId.type = "string";
    },
  ],
  [
    "removing a response property (Pet.status)",
    "property-removed",
    (s) => {
      delete schemas(s).Pet.properties.status;
    },
  ],
];

describe("breaking-change gate on the real contract", () => {
  it("the current contract passes against the newest released copy", async () => {
    const latest = latestReleasedContract(releasedContractsDir());
    const verdict = await checkBreakingChanges(latest.path, current);
    expect(verdict.passed, verdict.report).toBe(true);
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
    expect(verdict.report).toContain("set info.version to 2.0.0");
  });

  it.concurrent("passes on adding an optional response property, rated minor", async () => {
    const revision = fixture("optional-response-property", (s) => {
      schemas(s).Pet.properties.nickname = { type: "string", description: "A nickname." };
    });
    const verdict = await checkBreakingChanges(current, revision);
    expect(verdict.passed, verdict.report).toBe(true);
    expect(verdict.counts).toMatchObject({ major: 0 });
    expect(verdict.counts.minor).toBeGreaterThan(0);
  });

  it.concurrent("a major bump lets a breaking change pass, and reports it", async () => {
    const revision = fixture("major-bump", (s) => {
      schemas(s).PetStatus.enum = ["available", "pending"];
      s.info.version = "2.0.0";
    });
    const verdict = await checkBreakingChanges(current, revision);
    expect(verdict.passed, verdict.report).toBe(true);
    expect(verdict.majorBump).toBe(true);
    expect(verdict.report).toContain("BREAKING enum-values-removed");
  });

  it.concurrent("a minor bump does not let a breaking change pass", async () => {
    const revision = fixture("minor-bump", (s) => {
      delete s.paths["/pets"].post;
      s.info.version = "1.1.0";
    });
    const verdict = await checkBreakingChanges(current, revision);
    expect(verdict.passed, verdict.report).toBe(false);
  });

  it.concurrent("a version that goes backwards fails even without changes", async () => {
    const revision = fixture("backwards", (s) => {
      s.info.version = "0.9.0";
    });
    const verdict = await checkBreakingChanges(current, revision);
    expect(verdict.passed).toBe(false);
    expect(verdict.report).toContain("went backwards");
  });
});

describe("breaking-change CLI (dist, built before tests by turbo)", () => {
  const cli = new URL("../dist/breaking-change-cli.js", import.meta.url).pathname;
  const run = promisify(execFile);

  it.concurrent("exits 0 on the real contract and 1 with the report on a breaking fixture", async () => {
    const ok = await run(process.execPath, [cli]);
    expect(ok.stdout).toContain("(current)");
    const revision = fixture("cli-breaking", (s) => {
      delete s.paths["/pets/{petId}"];
    });
    const failed = await run(process.execPath, [cli, "--revision", revision]).then(
      () => ({ code: 0, stdout: "" }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain("BREAKING path-removed");
  });
});
