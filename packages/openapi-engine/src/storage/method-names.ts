/** The methods of an object, its own and inherited ones (class methods), for generic wrappers. */

/** Every function-valued property name of `target` and its prototypes, `constructor` excluded. */
export function methodNames(target: object): string[] {
  const names = new Set<string>();
  for (
    let at: object | null = target;
    at && at !== Object.prototype;
    at = Object.getPrototypeOf(at)
  ) {
    for (const name of Object.getOwnPropertyNames(at)) {
      if (name === "constructor") continue;
      const descriptor = Object.getOwnPropertyDescriptor(at, name);
      if (typeof descriptor?.value === "function") names.add(name);
    }
  }
  return [...names];
}
