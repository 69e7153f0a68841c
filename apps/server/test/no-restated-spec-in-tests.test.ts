/**
 * No test, test support or bench file restates what the contract holds where a spec edit would
 * leave it behind: the base path in front of a path of the spec (`/v1/pets`), a deprecated
 * operation's dates (as a date, an HTTP-date or seconds), the plan names listed, a plan's limit
 * expected in X-RateLimit-Limit, or listPets' page bounds in a query or a validation message; nor
 * does an Arazzo workflow write a page bound as a parameter's value (the gates pass it as input).
 * They read them from the bundled spec (@animal-store/test-support/spec-values) instead, so an
 * edit of openapi.yaml needs no test edit. One file restates them on purpose: the test proving
 * the spec says what the interface document says. A suite that declares its own contract
 * (`servers:` in its code) may use its own base path. The generic engine's and the reader's unit
 * tests (packages/openapi-engine, openapi/src) run on their own fixture contracts and are not
 * scanned.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { operations } from "@animal-store/test-support/spec";
import {
  anonymousPlan,
  basePath,
  deprecated,
  otherBasePath,
  pagedLists,
  plans,
} from "@animal-store/test-support/spec-values";
import { describe, expect, it } from "vitest";
import { code, literally, repo, sources } from "./support/source-scan.js";

/**
 * The one test that restates the contract on purpose (the interface document's values), and its
 * proof (interface-document-planted.test.ts, which plants departures from those values).
 */
const INTERFACE_DOCUMENT_TEST = "openapi/test/interface-document";

/** Where the tests, test support and bench live. */
const ROOTS = ["apps", "packages", "openapi/test"];
const isScanned = (file: string) =>
  !file.startsWith("packages/openapi-engine/") &&
  !file.startsWith(INTERFACE_DOCUMENT_TEST) &&
  (/\.test\.tsx?$/.test(file) ||
    /\/test\//.test(file) ||
    file.startsWith("packages/test-support/src/") ||
    file.startsWith("apps/bench/src/") ||
    file.startsWith("apps/reliability-tests/src/"));

interface Restatement {
  what: string;
  pattern: RegExp;
  /** Whether a suite with its own contract may use it. */
  ownContract?: boolean;
}

/** What the contract holds, as the patterns a restated copy in a test would match. */
function restatements(): Restatement[] {
  const firstSegments = [...new Set(operations.map((op) => op.path.split("/")[1] ?? ""))]
    .filter((segment) => segment !== "")
    .map(literally)
    .join("|");
  const dates = deprecated.flatMap(({ op, deprecation }) =>
    (
      [
        ["x-deprecated-since", deprecation.since],
        ["x-sunset", deprecation.sunset],
      ] as const
    ).flatMap(([key, instant]) => {
      if (!instant) return [];
      const day = instant.toISOString().slice(0, 10);
      return [
        { what: `${op.operationId} ${key}`, pattern: new RegExp(`${day}(T00:00:00|["'\`])`) },
        {
          what: `${op.operationId} ${key} as an HTTP-date`,
          pattern: new RegExp(instant.toUTCString()),
        },
        {
          what: `${op.operationId} ${key} in seconds`,
          pattern: new RegExp(`\\b${instant.getTime() / 1000}\\b`),
        },
      ];
    }),
  );
  const bounds = pagedLists.flatMap((list) => [
    {
      what: `${list.op.operationId} ${list.pageSize} maximum`,
      pattern: new RegExp(`[?&]${list.pageSize}=(${list.max}|${list.max + 1})\\b`),
    },
    {
      what: `${list.op.operationId} ${list.pageSize} maximum in a message`,
      pattern: new RegExp(`${list.pageSize} must be <= ${list.max}\\b`),
    },
  ]);
  return [
    {
      what: `the base path ${basePath} before a path of the spec`,
      pattern: new RegExp(`${literally(basePath)}/(${firstSegments})\\b`),
      ownContract: true,
    },
    {
      what: `the next version's base path ${otherBasePath} before a path of the spec (use otherBasePath)`,
      pattern: new RegExp(`${literally(otherBasePath)}/(${firstSegments})\\b`),
      ownContract: true,
    },
    ...dates,
    ...bounds,
    {
      what: "the plan names listed",
      pattern: new RegExp(
        plans
          .slice(0, 2)
          .map((p) => literally(p.name))
          .join(",\\s*"),
      ),
    },
    {
      what: `the ${anonymousPlan.name} plan's limit as X-RateLimit-Limit`,
      pattern: new RegExp(
        `\\[\\s*["'\`]${anonymousPlan.perMinute}["'\`]\\s*,\\s*["'\`]${anonymousPlan.perMinute - 1}["'\`]`,
      ),
    },
  ];
}

/** Each restatement found in `files` (path → source text), as `file: what`. */
function findRestatements(files: Record<string, string>): string[] {
  const all = restatements();
  return Object.entries(files).flatMap(([file, text]) => {
    const stripped = code(text);
    const ownContract = /\bservers:\s*\[/.test(stripped);
    return all
      .filter(
        ({ pattern, ownContract: allowed }) => !(allowed && ownContract) && pattern.test(stripped),
      )
      .map(({ what }) => `${file}: ${what}`);
  });
}

/** The Arazzo workflows, whose page sizes come in as inputs the gates read from the spec. */
const WORKFLOWS = "openapi/arazzo";

/** Each page bound written into a workflow as a value, as `file: what`. */
function findWorkflowRestatements(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([file, text]) =>
    pagedLists
      .filter((list) =>
        new RegExp(
          `name:\\s*${literally(list.pageSize)}\\b[^-]*?\\bvalue:\\s*(${list.max}|${list.max + 1})\\b`,
        ).test(text),
      )
      .map(
        (list) =>
          `${file}: ${list.op.operationId} ${list.pageSize} maximum as a value (take it as an input)`,
      ),
  );
}

describe("tests, test support and bench restate nothing the contract holds", () => {
  it("finds nothing outside the interface-document test", () => {
    const files = Object.fromEntries(
      ROOTS.flatMap((root) => sources(join(repo, root), isScanned)).map((file) => [
        file,
        readFileSync(join(repo, file), "utf8"),
      ]),
    );
    expect(Object.keys(files).length).toBeGreaterThan(150);
    expect(Object.keys(files).filter((file) => file.startsWith(INTERFACE_DOCUMENT_TEST))).toEqual(
      [],
    );
    expect(findRestatements(files)).toEqual([]);
  });

  it("finds no page bound written into an Arazzo workflow", () => {
    const files = Object.fromEntries(
      readdirSync(join(repo, WORKFLOWS))
        .filter((name) => name.endsWith(".arazzo.yaml"))
        .map((name) => [`${WORKFLOWS}/${name}`, readFileSync(join(repo, WORKFLOWS, name), "utf8")]),
    );
    expect(Object.keys(files).length).toBeGreaterThan(3);
    expect(findWorkflowRestatements(files)).toEqual([]);
  });

  it("would find a page bound written into a workflow, and not one taken as an input", () => {
    const [list] = pagedLists;
    const step = (value: string) =>
      `parameters:\n  - name: ${list?.pageSize}\n    in: query\n    value: ${value}\n`;
    const found = findWorkflowRestatements({
      "a.arazzo.yaml": step(String(list?.max)),
      "b.arazzo.yaml": step(String((list?.max ?? 0) + 1)),
      "c.arazzo.yaml": step("$inputs.pageMax"),
      "d.arazzo.yaml": step("1"),
    });
    expect(found.map((line) => line.split(":")[0])).toEqual(["a.arazzo.yaml", "b.arazzo.yaml"]);
  });

  it("would find a restated base path, date, page bound, plan list or limit", () => {
    const [first] = deprecated;
    const [list] = pagedLists;
    const planted: Record<string, string> = {
      "a.test.ts": `fetch(\`\${url}${basePath}/pets\`);`,
      "b.test.ts": `expect(sunset).toEqual(new Date("${first?.deprecation.sunset?.toISOString()}"));`,
      "c.test.ts": `const headers = { deprecation: "${first?.headers.Deprecation?.slice(1)}" };`,
      "d.test.ts": `await api("/pets?${list?.pageSize}=${(list?.max ?? 0) + 1}");`,
      "e.test.ts": `expect(message).toMatch(/--plan must be one of ${plans.map((p) => p.name).join(", ")}/);`,
      "f.test.ts": `expect(limits).toEqual(["${anonymousPlan.perMinute}", "${anonymousPlan.perMinute - 1}"]);`,
      "g.test.ts": `// a comment may say ${basePath}/pets`,
      "h.test.ts": `const spec = { servers: [{ url: "${basePath}" }] }; get("${basePath}/pets");`,
      "i.test.ts": `await fetch(\`\${url}${otherBasePath}/pets\`);`,
    };
    const found = findRestatements(planted);
    for (const file of ["a", "b", "c", "d", "e", "f", "i"].map((name) => `${name}.test.ts`)) {
      expect(
        found.some((line) => line.startsWith(`${file}:`)),
        file,
      ).toBe(true);
    }
    expect(found.filter((line) => /^[gh]\.test\.ts/.test(line))).toEqual([]);
  });
});
