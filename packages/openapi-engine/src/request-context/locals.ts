/**
 * `res.locals` of every response: one object shape for every request. Express makes it
 * `Object.create(null)`, which V8 keeps as a dictionary; every step reads its locals by name
 * (`operation`, `caller`, `requestId`...), so each read was a hash lookup. An instance of a
 * class declaring every local the engine's steps set is a fast object with a fixed layout, and
 * its prototype chain ends at null, as Express's does (no inherited `constructor` or
 * `toString` to be read by mistake). A step that sets a local not declared here still works
 * (the object grows a property), only slower.
 */
class Locals {
  requestId: string | undefined = undefined;
  startedAt: number | undefined = undefined;
  operation: unknown = undefined;
  caller: unknown = undefined;
  allow: string | undefined = undefined;
  unmatched: unknown = undefined;
}
Object.setPrototypeOf(Locals.prototype, null);

/** A fresh `res.locals`. */
export function newLocals(): Record<string, unknown> {
  return new Locals() as unknown as Record<string, unknown>;
}
