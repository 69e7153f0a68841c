/**
 * No constant in the server's code (the Animal Store's and the engine's it runs on) restates what
 * the contract says: plan names and limits, the ban rule, sunset and deprecation dates, operation
 * names, method lists. The contract's values are read at start (the spec-edit tests prove each
 * one follows an edit); this scans the sources so a restated copy cannot come back. Operation
 * names may appear in two places only, both checked by the generated types: the Animal Store's
 * handlers (the table's keys), and the store methods `pnpm scaffold` types by their operation
 * (`OperationInput<"op">` in the store's interface).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadBundledSpec, rateLimitPolicy, specOperations } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { code, literally, repo, sources } from "./support/source-scan.js";

const ROOTS = ["apps/server/src/", "packages/openapi-engine/src/"];
const { spec } = loadBundledSpec();
// The handlers are named by operationId (one file per operation, the table in its index.ts).
const HANDLERS = "apps/server/src/handlers/";
const STORE_INTERFACE = "apps/server/src/store/types.ts";
const HANDLER_TABLE = `${HANDLERS}index.ts`;

const quoted = (value: string) => new RegExp(`["'\`]${literally(value)}["'\`]`);

/** What the contract holds, as the patterns a restated copy would match. */
function restatements(): Array<{ what: string; pattern: RegExp; allowedIn?: string[] }> {
  const policy = rateLimitPolicy(spec);
  const operations = specOperations(spec);
  const dates = operations.flatMap((op) =>
    ["x-sunset", "x-deprecated-since"].flatMap((key) => {
      const value = op.operation[key];
      if (typeof value !== "string") return [];
      const instant = new Date(`${value}T00:00:00Z`);
      return [
        { what: `${op.operationId} ${key}`, pattern: new RegExp(value) },
        {
          what: `${op.operationId} ${key} as an HTTP-date`,
          pattern: new RegExp(instant.toUTCString()),
        },
        {
          what: `${op.operationId} ${key} in seconds`,
          pattern: new RegExp(String(instant.getTime() / 1000)),
        },
      ];
    }),
  );
  return [
    ...policy.planNames.map((name) => ({ what: `plan ${name}`, pattern: quoted(name) })),
    ...operations.map((op) => ({
      what: `operation ${op.operationId}`,
      pattern: quoted(op.operationId),
      allowedIn: [HANDLERS, STORE_INTERFACE],
    })),
    ...dates,
    {
      what: "a plan's or the ban's numbers",
      pattern:
        /\b(perMinute|perDay|threshold|seconds|banSeconds|rejectedRequestsBeforeBan)\s*:\s*\d/,
    },
    { what: "a list of HTTP methods", pattern: /\[\s*["'](GET|POST|PUT|PATCH|DELETE)["']\s*,/ },
    {
      what: "a successor or replacement",
      pattern: quoted(
        String(
          operations.find((o) => o.operation["x-replacement"])?.operation["x-replacement"] ??
            "\u0000",
        ),
      ),
    },
  ];
}

/** Each restatement found in `files` (path → source text), as `file: what`. */
function findRestatements(files: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const stripped = code(text);
    for (const { what, pattern, allowedIn } of restatements()) {
      const allowed = allowedIn?.some((prefix) => file.startsWith(prefix)) ?? false;
      if (!allowed && pattern.test(stripped)) found.push(`${file}: ${what}`);
    }
  }
  return found;
}

describe("the server's code restates nothing the contract holds", () => {
  it("finds nothing in the server's or the engine's src/ (tests aside)", () => {
    const files = Object.fromEntries(
      ROOTS.flatMap((root) =>
        sources(join(repo, root), (file) => file.endsWith(".ts") && !file.endsWith(".test.ts")),
      ).map((file) => [file, readFileSync(join(repo, file), "utf8")]),
    );
    expect(
      Object.keys(files).filter((file) => file.startsWith(ROOTS[1] as string)).length,
    ).toBeGreaterThan(40);
    expect(findRestatements(files)).toEqual([]);
  });

  it("would find a restated plan, limit, date, method list or operation name", () => {
    const policy = rateLimitPolicy(spec);
    const [op] = specOperations(spec);
    const sunset = specOperations(spec).find((o) => o.operation["x-sunset"])?.operation["x-sunset"];
    const planted = {
      "engine/a.ts": `const PLAN = "${policy.planNames[0]}";`,
      "engine/b.ts": "export const LIMITS = { perMinute: 60, perDay: 1000 };",
      "engine/c.ts": `const SUNSET = new Date("${String(sunset)}T00:00:00Z");`,
      "engine/d.ts": 'cors({ methods: ["GET", "POST"] });',
      "engine/e.ts": `if (operation.operationId === "${op?.operationId}") {}`,
      [HANDLER_TABLE]: `return { ${op?.operationId}: handler, "${op?.operationId}": other };`,
      "engine/f.ts": `// the "${policy.planNames[0]}" plan, in a comment, is fine`,
    };
    const found = findRestatements(planted);
    for (const file of [
      "engine/a.ts",
      "engine/b.ts",
      "engine/c.ts",
      "engine/d.ts",
      "engine/e.ts",
    ]) {
      expect(
        found.some((line) => line.startsWith(`${file}:`)),
        file,
      ).toBe(true);
    }
    expect(
      found.filter((line) => line.startsWith(HANDLER_TABLE) || line.startsWith("engine/f.ts")),
    ).toEqual([]);
  });
});
