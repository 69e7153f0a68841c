// The scaffold over a foreign fixture contract (hyphenated operationIds, no 500 declared, form
// and binary bodies, 204s), in an application of its own in a temporary directory: the stubs, the
// table and the store interface it writes compile against the engine's handler types, and the
// handlers whose operation left the contract are named, then removed with prune.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
// @ts-expect-error: plain ESM script without declarations
import { renderTypes } from "../../api-types/scripts/render-types.mjs";
// @ts-expect-error: plain ESM module without declarations
import { scaffold } from "../src/scaffold.mjs";

const fixture = fileURLToPath(
  new URL("../../test-support/fixtures/contracts/harbour-ferries.yaml", import.meta.url),
);
const engineTypes = fileURLToPath(new URL("../../openapi-engine/src/index.ts", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "foreign-scaffold-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const spec = parse(readFileSync(fixture, "utf8"));

/** A minimal application on the engine, typed by the fixture's generated types. */
// biome-ignore lint/suspicious/noExplicitAny: a parsed contract, walked loosely by the test
async function application(dir: string, contract: Record<string, any>) {
  mkdirSync(join(dir, "src/handlers"), { recursive: true });
  mkdirSync(join(dir, "src/store"), { recursive: true });
  mkdirSync(join(dir, "src/generated"), { recursive: true });
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(contract));
  writeFileSync(
    join(dir, "src/generated/openapi.ts"),
    await renderTypes(join(dir, "openapi.json")),
  );
  writeFileSync(
    join(dir, "src/handlers/types.ts"),
    `import type { Handler } from "@animal-store/openapi-engine";
import type { operations, ParameterDefaults } from "../generated/openapi.js";
import type { FerryStore } from "../store/types.js";
export type HandlerFactory<Op extends keyof operations> = (store: FerryStore) => Handler<operations, Op, ParameterDefaults>;
`,
  );
  writeFileSync(
    join(dir, "src/handlers/index.ts"),
    `import type { operations } from "../generated/openapi.js";
import type { HandlerFactory } from "./types.js";

export const handlerFactories = {
  // scaffold: new handlers above this line
} satisfies { [Op in keyof operations]?: HandlerFactory<Op> };
`,
  );
  writeFileSync(
    join(dir, "src/handlers/check.ts"),
    `import type { operations } from "../generated/openapi.js";
import { handlerFactories } from "./index.js";
import type { HandlerFactory } from "./types.js";
// Every operation of the contract has a handler of its own type.
export const all: { [Op in keyof operations]: HandlerFactory<Op> } = handlerFactories;
`,
  );
  writeFileSync(
    join(dir, "src/store/operation-io.ts"),
    `import type { operations } from "../generated/openapi.js";
export type OperationInput<Op extends keyof operations> = operations[Op]["parameters"];
export type OperationOutput<Op extends keyof operations> = operations[Op]["responses"];
`,
  );
  writeFileSync(
    join(dir, "src/store/types.ts"),
    `/** The ferries' storage. */
export interface FerryStore {
  close(): Promise<void>;
  // scaffold: new store methods above this line
}
`,
  );
}

/** Compiles every file of the application; the diagnostics' texts. */
function typecheck(dir: string): string[] {
  const files: string[] = [];
  const walk = (at: string) => {
    for (const entry of ts.sys.readDirectory(at, [".ts"])) files.push(entry);
  };
  walk(join(dir, "src"));
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    paths: { "@animal-store/openapi-engine": [engineTypes] },
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file?.fileName.slice(dir.length) ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
}

describe("scaffold over a foreign contract", { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(scratch, "app-"));
  const lines: string[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: a parsed contract, walked loosely by the test
  const run = (contract: Record<string, any>, prune = false) =>
    scaffold({
      dir,
      spec: contract,
      store: { file: "src/store/types.ts", interface: "FerryStore" },
      prune,
      log: (line: string) => lines.push(line),
    });

  it("writes stubs, entries and store signatures that compile where no 500 is declared", async () => {
    await application(dir, spec);
    const result = run(spec);
    expect(result.written).toContain("get-stations");
    const stub = readFileSync(join(dir, "src/handlers/get-stations.ts"), "utf8");
    expect(stub).toContain('export const getStations: HandlerFactory<"get-stations">');
    expect(stub).toContain('notImplemented("get-stations")');
    expect(existsSync(join(dir, "src/handlers/put-account-avatar.ts"))).toBe(true);
    const index = readFileSync(join(dir, "src/handlers/index.ts"), "utf8");
    expect(index).toContain('  "get-stations": getStations,');
    expect(index).toContain('import { putAccountAvatar } from "./put-account-avatar.js";');
    const store = readFileSync(join(dir, "src/store/types.ts"), "utf8");
    expect(store).toContain('getStations?(input: OperationInput<"get-stations">)');
    expect(lines).toContain(
      "scaffold: added getStations's signature to FerryStore (src/store/types.ts)",
    );
    expect(typecheck(dir)).toEqual([]);
  });

  it("a stub answering reply(500, ...) does not compile there (why the engine's helper)", async () => {
    const other = mkdtempSync(join(scratch, "reply-"));
    await application(other, spec);
    scaffold({
      dir: other,
      spec,
      store: { file: "src/store/types.ts", interface: "FerryStore" },
      log: () => {},
      handlerStub: (op: { operationId: string }, names: { identifier: string }) =>
        `import type { HandlerFactory } from "./types.js";\nexport const ${names.identifier}: HandlerFactory<${JSON.stringify(op.operationId)}> = (_store) => async ({ reply }) => reply(500, { code: "not_implemented" });\n`,
    });
    expect(typecheck(other).join("\n")).toMatch(/get-stations\.ts: /);
  });

  it("names the handlers whose operation left the contract, and prunes them", () => {
    const fewer = structuredClone(spec);
    delete fewer.paths["/bookings/{booking-id}/ticket"];
    lines.length = 0;
    expect(run(fewer).orphans).toEqual(["get-booking-ticket"]);
    expect(lines.join("\n")).toMatch(
      /get-booking-ticket is not an operation of the spec any more: its handler getBookingTicket \(src\/handlers\/get-booking-ticket\.ts\) is still registered; run with --prune/,
    );
    expect(existsSync(join(dir, "src/handlers/get-booking-ticket.ts"))).toBe(true);
    expect(run(fewer, true).pruned).toEqual(["get-booking-ticket"]);
    expect(existsSync(join(dir, "src/handlers/get-booking-ticket.ts"))).toBe(false);
    expect(readFileSync(join(dir, "src/handlers/index.ts"), "utf8")).not.toMatch(
      /getBookingTicket/,
    );
    expect(readFileSync(join(dir, "src/store/types.ts"), "utf8")).not.toMatch(/getBookingTicket/);
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(fewer));
  });

  it("after the prune the application compiles on the smaller contract", async () => {
    const fewer = JSON.parse(readFileSync(join(dir, "openapi.json"), "utf8"));
    writeFileSync(
      join(dir, "src/generated/openapi.ts"),
      await renderTypes(join(dir, "openapi.json")),
    );
    expect(fewer.paths["/bookings/{booking-id}/ticket"]).toBeUndefined();
    expect(typecheck(dir)).toEqual([]);
  });
});

describe("scaffold over a second foreign contract", { timeout: 120_000 }, () => {
  it("names handlers of operationIds with digits and dots, and they compile", async () => {
    const second = parse(readFileSync(fixture.replace("harbour-ferries", "library-loans"), "utf8"));
    const dir = mkdtempSync(join(scratch, "library-"));
    await application(dir, second);
    scaffold({
      dir,
      spec: second,
      store: { file: "src/store/types.ts", interface: "FerryStore" },
      log: () => {},
    });
    const index = readFileSync(join(dir, "src/handlers/index.ts"), "utf8");
    expect(index).toContain('  "3-loans-of-member": _3LoansOfMember,');
    expect(index).toContain('  "books.cover.upload": booksCoverUpload,');
    expect(existsSync(join(dir, "src/handlers/3-loans-of-member.ts"))).toBe(true);
    expect(typecheck(dir)).toEqual([]);
  });
});
