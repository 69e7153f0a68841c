/**
 * A fixed list of headers put on a fresh response at the cost of one object literal.
 *
 * `setHeader` validates the name and the value, lower-cases the name and stores the pair in the
 * response's header table, on every call; for the same constant strings on every request the
 * checks can only repeat what was proved once at start. Node keeps that table under a private
 * symbol (`kOutHeaders`: a null-prototype object of lower-cased name -> [name, value]) that is
 * null until the first header is set, and reads it back in `getHeader`, `hasHeader`, `writeHead`
 * and the head it writes. The preset builds that table in one literal, the names and values
 * validated here once, through `setHeader` on a probe response.
 *
 * Node's internals can change: the symbol is found by probing a response at load time, and the
 * probe must show the table exactly as described or the preset falls back to `setHeader` for
 * every header (`presetIsDirect` says which; preset-headers.test.ts asserts the direct road on
 * this Node, so an upgrade that breaks it is noticed rather than silently slower).
 */
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { bareClass } from "../bare-objects.js";

/** The response's header table, as Node keeps it. */
type HeaderTable = Record<string, [string, string | number]>;

function probeResponse(): ServerResponse {
  return new ServerResponse(new IncomingMessage(new Socket()));
}

/** Node's private symbol for the header table, if the probe finds it as described. */
function findTableSymbol(): symbol | undefined {
  const probe = probeResponse() as unknown as Record<symbol, unknown>;
  const symbol = Object.getOwnPropertySymbols(probe).find((s) => s.description === "kOutHeaders");
  if (symbol === undefined || probe[symbol] !== null) return undefined;
  const res = probe as unknown as ServerResponse;
  res.setHeader("X-Probe", "1");
  const table = probe[symbol] as HeaderTable | null;
  if (table === null || Object.getPrototypeOf(table) !== null) return undefined;
  const entry = table["x-probe"];
  if (!Array.isArray(entry) || entry[0] !== "X-Probe" || entry[1] !== "1") return undefined;
  // And Node reads it back from there.
  probe[symbol] = Object.assign(Object.create(null), { "x-back": ["X-Back", "2"] });
  if (res.getHeader("x-back") !== "2") return undefined;
  return symbol;
}

const TABLE = findTableSymbol();

/** A header table that inherits nothing, as Node's, and keeps fast properties. */
const EmptyTable = bareClass<HeaderTable>();

/** The table constructors of `presetHeaders`, by header list. */
const presets = new Map<string, new () => HeaderTable>();

/** Whether presets write Node's header table directly (false: through setHeader). */
export const presetIsDirect = TABLE !== undefined;

/** Puts `headers` on a response; returns the function that does it per request. */
export function presetHeaders(
  headers: ReadonlyArray<readonly [string, string]>,
): (res: ServerResponse) => void {
  // Validated once, as setHeader would on every request.
  const probe = probeResponse();
  for (const [name, value] of headers) probe.setHeader(name, value);
  const viaSetHeader = (res: ServerResponse) => {
    for (const [name, value] of headers) res.setHeader(name, value);
  };
  if (TABLE === undefined) return viaSetHeader;
  // One constructor call with fresh [name, value] arrays per response (Node appends to them in
  // place). A constructor, not a `{ __proto__: null }` literal, which V8 keeps as a dictionary,
  // while Node walks the table with for-in when it writes the head (bare-objects.ts).
  // One constructor per header list for the whole process: every app of the process (the
  // warm-up's has its own) then makes tables of one hidden class, and the code that reads and
  // writes them (setEngineHeader, Node's head) stays monomorphic (see arrayMapperFor in the
  // server's store for what a second one cost).
  const key = JSON.stringify(headers);
  let Preset = presets.get(key);
  if (Preset === undefined) {
    const assignments = headers.map(
      ([name, value]) =>
        `this[${JSON.stringify(name.toLowerCase())}] = [${JSON.stringify(name)}, ${JSON.stringify(value)}];`,
    );
    Preset = bareClass<HeaderTable>(new Function(assignments.join("\n")));
    presets.set(key, Preset);
  }
  const Made = Preset;
  const table = () => new Made();
  return (res) => {
    const target = res as unknown as Record<symbol, HeaderTable | null>;
    // A header already set (by an earlier step): merged through setHeader instead.
    if (target[TABLE] === null) target[TABLE] = table();
    else viaSetHeader(res);
  };
}

/**
 * Sets one header as `setHeader` does, minus its checks, for a name and a value the engine wrote
 * and knows to be valid: a constant name (with `lowerName` its lower case) and a number, a
 * constant or an id it checked. Never for a value from a handler or a request, which `setHeader`
 * must see. Headers already sent go through `setHeader`, for its error.
 */
export function setEngineHeader(
  res: ServerResponse,
  lowerName: string,
  name: string,
  value: string | number,
): void {
  if (TABLE === undefined || res.headersSent) {
    res.setHeader(name, value);
    return;
  }
  const target = res as unknown as Record<symbol, HeaderTable | null>;
  let table = target[TABLE];
  if (!table) {
    table = new EmptyTable();
    target[TABLE] = table;
  }
  table[lowerName] = [name, value];
}
