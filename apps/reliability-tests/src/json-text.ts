/**
 * JSON text with numbers JavaScript cannot hold: ids beyond 2^53 or 1e400 must reach the server
 * as written, so generated values carry them as literals and this serialiser writes them raw.
 */

/** A JSON number written verbatim (e.g. `9007199254740993`), which a JS number would round. */
export class JsonNumberLiteral {
  constructor(readonly text: string) {
    if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
      throw new Error(`not a JSON number: ${text}`);
    }
  }
}

/** Serialises a generated value to JSON text, writing `JsonNumberLiteral`s verbatim. */
export function toJsonText(value: unknown): string {
  if (value instanceof JsonNumberLiteral) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.keys(value).map(
      (key) => `${JSON.stringify(key)}:${toJsonText((value as Record<string, unknown>)[key])}`,
    );
    return `{${members.join(",")}}`;
  }
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error(`cannot serialise ${typeof value} as JSON`);
  return text;
}

/** Sets an own property even for `__proto__`, which plain assignment would turn into a prototype. */
export function withOwnProperty<T extends object>(target: T, key: string, value: unknown): T {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return target;
}
