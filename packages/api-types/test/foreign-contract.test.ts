// Types for any contract: a foreign fixture contract (hyphenated operationIds, schema names that
// are not identifiers, no vendor extensions) generates TypeScript that compiles, with a named
// type per schema and the error body derived from its problem+json responses.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
// @ts-expect-error: plain ESM script without declarations
import { renderTypes, schemaTypeNames } from "../scripts/render-types.mjs";

const fixture = fileURLToPath(
  new URL("../../test-support/fixtures/contracts/harbour-ferries.yaml", import.meta.url),
);
const scratch = mkdtempSync(join(tmpdir(), "foreign-types-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Generates the fixture's types beside a copy of src/index.ts and `check`, and compiles them. */
async function compile(
  check: string,
  // biome-ignore lint/suspicious/noExplicitAny: a parsed contract, walked loosely by the test
  edit: (spec: Record<string, any>) => void = () => {},
  contract = fixture,
) {
  const spec = parse(readFileSync(contract, "utf8"));
  edit(spec);
  const dir = mkdtempSync(join(scratch, "case-"));
  mkdirSync(join(dir, "generated"));
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(spec));
  const generated = (await renderTypes(join(dir, "openapi.json"))) as string;
  writeFileSync(join(dir, "generated/openapi.ts"), generated);
  copyFileSync(fileURLToPath(new URL("../src/index.ts", import.meta.url)), join(dir, "index.ts"));
  writeFileSync(join(dir, "check.ts"), check);
  const program = ts.createProgram([join(dir, "check.ts")], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  });
  const errors = ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  return { generated, errors };
}

const CHECK = `import type { ApiError, BookingStatus, NewBooking, OperationId, ParameterDefaults, Plan, Problem, Station } from "./index.js";
const status: BookingStatus = "held";
// @ts-expect-error: not a value of booking.status
const lost: BookingStatus = "lost";
const booking: NewBooking = { "station-from": "a", "station-to": "b", departure: "2027-03-01T08:30:00Z", passengers: 2 };
const station: Station = { id: "x", name: "Nordkai", country: "NO" };
const id: OperationId = "get-stations";
const defaulted: ParameterDefaults["get-stations"]["query"] = "page-size";
const problem: ApiError = { type: "about:blank", title: "t", status: 400 } satisfies Problem;
const back: Problem = problem;
// @ts-expect-error: the contract declares no rate-limit plans
const plan: Plan = "free";
export const all = [status, lost, booking, station, id, defaulted, back, plan];
`;

describe("types of a foreign contract", { timeout: 60_000 }, () => {
  it("compile, with a named type per schema, quoted keys and the problem+json error body", async () => {
    const { generated, errors } = await compile(CHECK);
    expect(errors).toEqual([]);
    expect(generated).toMatch(/^ {2}"get-stations": \{ query: "page-size" \};$/m);
    expect(generated).toMatch(
      /^export type NewBooking = components\["schemas"\]\["New-Booking"\];$/m,
    );
    expect(generated).toMatch(/^export type Plan = never;$/m);
  });

  it("fail to compile a value the contract does not allow (the check can fail)", async () => {
    const { errors } = await compile(CHECK.replace('= "held"', '= "sunk"'));
    expect(errors.join("\n")).toMatch(/"sunk"/);
  });

  it("compile for any legal operationId and schema name", async () => {
    const { errors, generated } = await compile(
      `import type { _2fa, Class, ParameterDefaults } from "./index.js";\nexport type T = [_2fa, Class, ParameterDefaults["op.with:odd~chars"]];\n`,
      (spec) => {
        spec.components.schemas["2fa"] = { type: "string" };
        spec.components.schemas.class = { type: "integer" };
        spec.paths["/stations"].get.operationId = "op.with:odd~chars";
      },
    );
    expect(errors).toEqual([]);
    expect(generated).toMatch(/"op\.with:odd~chars"/);
  });
});

describe("types of a second foreign contract", { timeout: 60_000 }, () => {
  it("compile, with its `default` error body and operationIds starting with a digit", async () => {
    const { errors } = await compile(
      `import type { ApiError, BookV1, Loan_2, OperationId, operations } from "./index.js";
const failure: ApiError = { error: "out of stock" };
const loan: Loan_2 = { book: "9780262033848", due: "2027-02-01" };
const book: BookV1 = { isbn: "9780262033848", title: "SICP" };
const id: OperationId = "3-loans-of-member";
type Lend = operations["3-lend"]["requestBody"];
export const all = [failure, loan, book, id] as const;
export type { Lend };
`,
      () => {},
      fixture.replace("harbour-ferries.yaml", "library-loans.yaml"),
    );
    expect(errors).toEqual([]);
  });
});

describe("schema type names", () => {
  it("keep identifiers, PascalCase the rest, and never collide", () => {
    const names = schemaTypeNames([
      "Item",
      "error",
      "New-Booking",
      "booking.status",
      "Plan",
      "new_x",
    ]);
    expect(Object.fromEntries(names)).toEqual({
      Item: "Item",
      error: "Error",
      "New-Booking": "NewBooking",
      "booking.status": "BookingStatus",
      Plan: "PlanSchema",
      new_x: "New_x",
    });
    expect(schemaTypeNames(["a-b", "AB", "a.b"]).get("a.b")).toBe("ABSchema2");
  });
});
