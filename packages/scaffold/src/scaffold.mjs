// Scaffolding for any contract, for any application on the engine. For each operation of the
// bundled contract that the application's handler table does not register, it writes
//   - <handlers>/<file>.ts: a typed handler stub that calls the engine's `notImplemented` (the
//     engine answers it as an operation without a handler: `not_implemented`, in its error shape),
//     registered in the handler table (an import and an entry above the table's marker);
//   - the store method's signature in the application's store interface (above its marker,
//     optional until the store implements it; typed by OperationInput/OperationOutput);
//   - <tests>/<file>.test.ts when the application gives a test template.
// Handlers the table registers whose operation left the contract are named; with `prune` their
// entry, import, handler file, test file and scaffold-written store signature are removed.
// It never overwrites a file. Names follow names.mjs (IDENTIFIER and FILE NAME). It reads only
// text: it runs while the application's handlers do not compile.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { specOperations } from "@animal-store/openapi";
import { fileNameOf, identifierOf, propertyKey } from "./names.mjs";

export { fileNameOf, identifierOf, propertyKey, words } from "./names.mjs";

/** The marker line above which the handler table's entries are added. */
export const HANDLERS_MARKER = "  // scaffold: new handlers above this line";
/** The marker line above which the store interface's signatures are added. */
export const STORE_MARKER = "  // scaffold: new store methods above this line";

/** The default handler stub: typed by the application's `HandlerFactory` in `<handlers>/types.ts`. */
export const defaultHandlerStub = (
  op,
  names,
) => `/** ${op.operationId}: ${op.summary ?? `${op.method} ${op.path}`}. Written by \`pnpm scaffold\`: fill in the body. */
import { notImplemented } from "@animal-store/openapi-engine";
import type { HandlerFactory } from "./types.js";

export const ${names.identifier}: HandlerFactory<${JSON.stringify(op.operationId)}> = (_store) => async () =>
  notImplemented(${JSON.stringify(op.operationId)});
`;

/** The operationIds the table registers (between `<table> = {` and the marker), with their identifiers. */
export function registeredHandlers(index, table = "handlerFactories") {
  const start = index.indexOf(`${table} = {`);
  const end = index.indexOf(HANDLERS_MARKER);
  if (start < 0 || end < start) return undefined;
  const entries = new Map();
  for (const line of index.slice(start, end).split("\n").slice(1)) {
    const match =
      /^ {2}(?:([A-Za-z_$][\w$]*)|("(?:[^"\\]|\\.)*"|[A-Za-z_$][\w$]*): ([A-Za-z_$][\w$]*)),?$/.exec(
        line,
      );
    if (!match) continue;
    if (match[1]) entries.set(match[1], match[1]);
    else entries.set(match[2].startsWith('"') ? JSON.parse(match[2]) : match[2], match[3]);
  }
  return entries;
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Runs the scaffold. `config`:
 *   dir: the application's root (paths below are relative to it)
 *   spec: the bundled contract (parsed)
 *   handlersDir ("src/handlers"), index ("src/handlers/index.ts"), table ("handlerFactories")
 *   store: { file: "src/store/types.ts", interface: "Store" }
 *   testsDir ("test/handlers"), testStub(op, names) (no test written without it)
 *   handlerStub(op, names) (defaultHandlerStub)
 *   prune: remove the handlers whose operation left the contract
 *   log(line)
 * Returns { written, pruned, orphans, touched } (touched: absolute paths written or changed).
 */
export function scaffold(config) {
  const {
    dir,
    spec,
    handlersDir = "src/handlers",
    index: indexFile = "src/handlers/index.ts",
    table = "handlerFactories",
    store: storeConfig = { file: "src/store/types.ts", interface: "Store" },
    testsDir = "test/handlers",
    testStub,
    handlerStub = defaultHandlerStub,
    prune = false,
    log = console.log,
  } = config;
  const at = (path) => join(dir, path);
  let index = readFileSync(at(indexFile), "utf8");
  let store = readFileSync(at(storeConfig.file), "utf8");
  const have = registeredHandlers(index, table);
  if (!have || !store.includes(STORE_MARKER)) {
    throw new Error(
      `the markers are gone: "${HANDLERS_MARKER.trim()}" in ${indexFile} (in ${table}) or "${STORE_MARKER.trim()}" in ${storeConfig.file}`,
    );
  }
  const operations = specOperations(spec);
  const byIdentifier = new Map();
  for (const op of operations) {
    const identifier = identifierOf(op.operationId);
    const other = byIdentifier.get(identifier);
    if (other !== undefined) {
      throw new Error(
        `operationIds ${JSON.stringify(other)} and ${JSON.stringify(op.operationId)} both make the identifier ${identifier}: rename one in the spec`,
      );
    }
    byIdentifier.set(identifier, op.operationId);
  }
  const touched = new Set();
  const write = (path, text) => {
    if (existsSync(at(path))) {
      log(`scaffold: ${path} exists, left as it is`);
      return;
    }
    mkdirSync(dirname(at(path)), { recursive: true });
    writeFileSync(at(path), text);
    touched.add(at(path));
    log(`scaffold: wrote ${path}`);
  };

  const missing = operations.filter((op) => !have.has(op.operationId));
  if (missing.length === 0) log("scaffold: every operation of the spec has a handler");
  for (const op of missing) {
    const names = { identifier: identifierOf(op.operationId), file: fileNameOf(op.operationId) };
    write(`${handlersDir}/${names.file}.ts`, handlerStub(op, names));
    if (testStub) write(`${testsDir}/${names.file}.test.ts`, testStub(op, names));
    const importLine = `import { ${names.identifier} } from "./${names.file}.js";\n`;
    if (!index.includes(importLine)) {
      const firstImport = index.indexOf("import ");
      index = `${index.slice(0, firstImport)}${importLine}${index.slice(firstImport)}`;
    }
    const key = propertyKey(op.operationId);
    const entry = key === names.identifier ? names.identifier : `${key}: ${names.identifier}`;
    index = index.replace(HANDLERS_MARKER, `  ${entry},\n${HANDLERS_MARKER}`);
    log(`scaffold: registered ${op.operationId} in ${indexFile}`);
    if (!store.includes(`  ${names.identifier}?(`)) {
      const signature = `  /** ${op.operationId} (${op.method} ${op.path}). Written by \`pnpm scaffold\`: implement it, then make it required. */\n  ${names.identifier}?(input: OperationInput<${JSON.stringify(op.operationId)}>): Promise<OperationOutput<${JSON.stringify(op.operationId)}>>;\n`;
      store = store.replace(STORE_MARKER, `${signature}${STORE_MARKER}`);
      if (!/import type \{ OperationInput, OperationOutput \}/.test(store)) {
        const imports = [...store.matchAll(/^import [^;]*;\n/gm)];
        const last = imports[imports.length - 1];
        const cut = last ? (last.index ?? 0) + last[0].length : 0;
        store = `${store.slice(0, cut)}import type { OperationInput, OperationOutput } from "./operation-io.js";\n${store.slice(cut)}`;
      }
      log(
        `scaffold: added ${names.identifier}'s signature to ${storeConfig.interface} (${storeConfig.file})`,
      );
    }
  }

  const inSpec = new Set(operations.map((op) => op.operationId));
  const orphans = [...have].filter(([operationId]) => !inSpec.has(operationId));
  for (const [operationId, identifier] of orphans) {
    const file = fileNameOf(operationId);
    if (!prune) {
      log(
        `scaffold: ${operationId} is not an operation of the spec any more: its handler ${identifier} (${handlersDir}/${file}.ts) is still registered; run with --prune to remove it`,
      );
      continue;
    }
    const key = propertyKey(operationId);
    index = index
      .replace(
        new RegExp(
          `^ {2}(?:${escapeRegExp(identifier)}|${escapeRegExp(key)}: ${escapeRegExp(identifier)}),?\\n`,
          "m",
        ),
        "",
      )
      .replace(new RegExp(`^import \\{ ${escapeRegExp(identifier)} \\} from "[^"]*";\\n`, "m"), "");
    for (const path of [`${handlersDir}/${file}.ts`, `${testsDir}/${file}.test.ts`]) {
      if (!existsSync(at(path))) continue;
      rmSync(at(path));
      log(`scaffold: removed ${path}`);
    }
    const signature = new RegExp(
      `^ {2}/\\*\\* ${escapeRegExp(operationId)} \\([^\\n]*Written by \`pnpm scaffold\`[^\\n]*\\n {2}${escapeRegExp(identifier)}\\?\\([\\s\\S]*?\\): Promise<OperationOutput<"${escapeRegExp(operationId)}">>;\\n`,
      "m",
    );
    if (signature.test(store)) {
      store = store.replace(signature, "");
      log(`scaffold: removed ${identifier}'s signature from ${storeConfig.interface}`);
    } else if (new RegExp(`^ {2}${escapeRegExp(identifier)}\\??\\(`, "m").test(store)) {
      log(
        `scaffold: ${storeConfig.interface} (${storeConfig.file}) still has ${identifier}, written by hand: remove it and its implementation yourself`,
      );
    }
    log(`scaffold: unregistered ${operationId} from ${indexFile}`);
  }

  const changedIndex = index !== readFileSync(at(indexFile), "utf8");
  const changedStore = store !== readFileSync(at(storeConfig.file), "utf8");
  if (changedIndex) {
    writeFileSync(at(indexFile), index);
    touched.add(at(indexFile));
  }
  if (changedStore) {
    writeFileSync(at(storeConfig.file), store);
    touched.add(at(storeConfig.file));
  }
  return {
    written: missing.map((op) => op.operationId),
    orphans: orphans.map(([operationId]) => operationId),
    pruned: prune ? orphans.map(([operationId]) => operationId) : [],
    touched: [...touched],
  };
}
