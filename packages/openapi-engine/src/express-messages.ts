/**
 * Requests and responses born with Express's prototypes.
 *
 * Express's `app.handle` gives every request and response its prototype (`app.request`,
 * `app.response`) with `Object.setPrototypeOf`, after Node has built them. In V8 that gives each
 * object a hidden class of its own: no two requests shared one (checked with
 * `%DebugPrint` under --allow-natives-syntax), so every property access in Node's, Express's and
 * our code met a new shape on every request, and every request allocated new hidden classes.
 *
 * Node's HTTP server takes the classes it builds requests and responses with. These subclass
 * Node's own, their prototypes inherit from Express's, and they become the app's `app.request` /
 * `app.response`, so Express's call finds the prototype already set and changes nothing. Every
 * request then shares one hidden class, sized by V8 for the properties it gets, and so does every
 * response. The methods each object sees are Express's and Node's, as before.
 *
 * This bought more than any other change to the server (apps/bench/README.md has the figures).
 * It is the one place the engine leans on how Express builds a request (`app.handle` gives each
 * request and response `app.request` / `app.response` as prototypes and keeps a `res.locals` it
 * finds), so the module probes that at load and refuses to load, naming what moved, when an
 * upgrade of Express changes it.
 *
 * The second half of the file writes the response's header table the same way Node keeps it
 * (below): the one other place the engine leans on Node's insides, probed at load too.
 */
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import express, { type Express } from "express";
import { bareClass } from "./bare-objects.js";

/**
 * `res.locals` of every response: one object shape for every request. Express makes it
 * `Object.create(null)`, which V8 keeps as a dictionary; every step reads its locals by name
 * (`operation`, `caller`, `requestId`...), so each read was a hash lookup. An instance of a
 * constructor setting every local the engine's steps set is a fast object with a fixed layout,
 * and nothing is inherited, as with Express's (no `constructor` or `toString` to be read by
 * mistake: bare-objects.ts). A step that sets a local not declared here still works
 * (the object grows a property), only slower.
 */
interface LocalsShape {
  requestId: string | undefined;
  startedAt: number | undefined;
  operation: unknown;
  caller: unknown;
  allow: string | undefined;
  unmatched: unknown;
  mediaType: unknown;
}

const Locals = bareClass<LocalsShape>(function Locals(this: LocalsShape) {
  this.requestId = undefined;
  this.startedAt = undefined;
  this.operation = undefined;
  this.caller = undefined;
  this.allow = undefined;
  this.unmatched = undefined;
  this.mediaType = undefined;
});

/**
 * What the request context (api-app.ts, `requestContext`) sets, for every later step and the
 * error handler.
 */
export interface RequestLocals {
  /** Echoed as X-Request-Id; in every log line and 500 message. */
  requestId: string;
}

/** A fresh `res.locals`. */
export function newLocals(): Record<string, unknown> {
  return new Locals() as unknown as Record<string, unknown>;
}

export interface MessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

const installed = new WeakMap<Express, MessageClasses>();

/**
 * `createServer` options whose requests and responses have `app`'s prototypes from the start.
 * Makes their prototypes `app.request` / `app.response`: call it before `app` serves a request.
 */
export function expressMessageClasses(app: Express): MessageClasses {
  const existing = installed.get(app);
  if (existing) return existing;
  class ExpressRequest extends IncomingMessage {
    // Born with what the edge's header walk leaves (auth/security.ts, HeaderLines).
    authorizationLines: number | undefined = undefined;
  }
  class ExpressResponse extends ServerResponse {
    // Born with its locals (above): Express's app.handle keeps them.
    locals = newLocals();
  }
  Object.setPrototypeOf(ExpressRequest.prototype, app.request);
  Object.setPrototypeOf(ExpressResponse.prototype, app.response);
  app.request = ExpressRequest.prototype as unknown as Express["request"];
  app.response = ExpressResponse.prototype as unknown as Express["response"];
  const classes: MessageClasses = {
    IncomingMessage: ExpressRequest,
    ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
  };
  installed.set(app, classes);
  return classes;
}

/**
 * Runs one request through a throw-away app built with its message classes; throws naming what
 * an upgrade of Express moved when Express replaces the prototypes or the locals they were born
 * with, or no longer runs a synchronous middleware from `app.handle` synchronously.
 */
export function probeExpressMessages(): void {
  const app = express();
  const classes = expressMessageClasses(app);
  const req = new classes.IncomingMessage(new Socket());
  req.method = "GET";
  req.url = "/";
  const res = new classes.ServerResponse(req);
  const born = (res as unknown as { locals: unknown }).locals;
  const moved: string[] = [];
  let ran = false;
  app.use((seenReq, seenRes) => {
    ran = true;
    if (Object.getPrototypeOf(seenReq) !== classes.IncomingMessage.prototype)
      moved.push("the request's prototype");
    if (Object.getPrototypeOf(seenRes) !== classes.ServerResponse.prototype)
      moved.push("the response's prototype");
    if (seenRes.locals !== born) moved.push("res.locals");
  });
  const handle = app as unknown as (
    a: IncomingMessage,
    b: ServerResponse,
    done: () => void,
  ) => void;
  handle(req, res, () => moved.push("the middleware (the final handler ran instead)"));
  if (!ran && moved.length === 0) moved.push("the middleware (not run synchronously)");
  if (moved.length > 0) {
    throw new Error(
      `express no longer keeps what app.handle is given: ${moved.join(", ")} changed; http-server/express-messages.ts must follow Express's new way of building requests`,
    );
  }
}

// At load: a server built on classes Express no longer honours must not start.
probeExpressMessages();

/**
 * Node's header table: a fixed list of headers put on a fresh response at the cost of one object literal.
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
 * every header (`presetIsDirect` says which; express-messages-headers.test.ts asserts the direct road on
 * this Node, so an upgrade that breaks it is noticed rather than silently slower).
 */
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

const FOUND_TABLE = findTableSymbol();
if (FOUND_TABLE === undefined) {
  throw new Error(
    "node:http no longer keeps a response's headers in the kOutHeaders table as http-server/express-messages.ts writes it (a null-prototype object of lower-cased name to [name, value], read back by getHeader): that file must follow Node's new header table",
  );
}
const TABLE: symbol = FOUND_TABLE;
/** The symbol of Node's header table on a response (for tests that look at the table itself). */
export const HEADER_TABLE = TABLE;

/** A header table that inherits nothing, as Node's, and keeps fast properties. */
const EmptyTable = bareClass<HeaderTable>();

/** The table constructors of `presetHeaders`, by header list. */
const presets = new Map<string, new () => HeaderTable>();

/** Whether presets write Node's header table directly (the probe above refuses to load otherwise). */
export const presetIsDirect = true;

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
  if (res.headersSent) {
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
