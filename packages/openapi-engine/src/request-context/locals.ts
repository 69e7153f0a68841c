/**
 * `res.locals` of every response: one object shape for every request. Express makes it
 * `Object.create(null)`, which V8 keeps as a dictionary; every step reads its locals by name
 * (`operation`, `caller`, `requestId`...), so each read was a hash lookup. An instance of a
 * constructor setting every local the engine's steps set is a fast object with a fixed layout,
 * and nothing is inherited, as with Express's (no `constructor` or `toString` to be read by
 * mistake: bare-objects.ts). A step that sets a local not declared here still works
 * (the object grows a property), only slower.
 */
import { bareClass } from "../bare-objects.js";

interface LocalsShape {
  requestId: string | undefined;
  startedAt: number | undefined;
  operation: unknown;
  caller: unknown;
  allow: string | undefined;
  unmatched: unknown;
}

const Locals = bareClass<LocalsShape>(function Locals(this: LocalsShape) {
  this.requestId = undefined;
  this.startedAt = undefined;
  this.operation = undefined;
  this.caller = undefined;
  this.allow = undefined;
  this.unmatched = undefined;
});

/** A fresh `res.locals`. */
export function newLocals(): Record<string, unknown> {
  return new Locals() as unknown as Record<string, unknown>;
}
