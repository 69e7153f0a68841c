/**
 * Objects that inherit nothing, as `Object.create(null)` makes them, but keep V8's fast
 * properties. V8 keeps an object made by `Object.create(null)` (or a `{ __proto__: null }`
 * literal) as a dictionary, and every later read, write and for-in of it pays for that. An object
 * built by a constructor whose prototype is an empty, prototype-less object inherits nothing
 * either (no `constructor`, `toString` or `__proto__` setter on its chain) and keeps a shape.
 */

/** `make` (an empty constructor by default), made to build such objects. */
// biome-ignore lint/complexity/noBannedTypes: any function can be a constructor here.
export function bareClass<T extends object>(make: Function = function Bare() {}) {
  make.prototype = Object.create(null);
  return make as unknown as new () => T;
}
