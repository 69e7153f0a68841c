/**
 * `spec-facts/stored-strings`: where the application stores what a request body carries, every
 * string property of it refuses U+0000 by a rule
 * the spec states (a `pattern` that does not match it, or an `enum`/`const` without it). A NUL
 * cannot be stored byte for byte: SQLite reads such a string back cut at the NUL and PostgreSQL
 * refuses it, so without the rule a `201` would alter what the client sent (or a `500` follow).
 * With it the server answers `400 validation_failed` before anything is stored.
 *
 * Option `stores`: which request bodies the application stores: `all` (every JSON request body),
 * or a list of component schema names. The default, none: lint cannot know what an application
 * stores, so the generic layer checks nothing until the application's configuration says.
 */
import {
  deref,
  isJsonObject,
  type JsonObject,
  operationPath,
  type SpecPath,
  specOperations,
} from "@animal-store/openapi";
import { rootRule } from "./report.js";

/** Whether `schema` (a string schema, `$ref`s followed) refuses a string holding U+0000. */
function refusesNul(schema: JsonObject): boolean {
  const values = Array.isArray(schema.enum)
    ? schema.enum
    : "const" in schema
      ? [schema.const]
      : undefined;
  if (values) return values.every((value) => !String(value).includes("\u0000"));
  if (typeof schema.pattern !== "string") return false;
  try {
    return !new RegExp(schema.pattern, "u").test("a\u0000b");
  } catch {
    return false;
  }
}

/** The path a `$ref` (`#/components/schemas/NewItem`) points at. */
const refPath = (ref: string): SpecPath => ref.replace(/^#\//, "").split("/");

/** The rule's visitor factory. */
export const storedStringsRule = rootRule<{ stores: "all" | string[] }>((facts, options) => {
  const stores = options.stores ?? [];
  const stored = (at: SpecPath) =>
    stores === "all" ||
    (Array.isArray(stores) && at[0] === "components" && stores.includes(String(at[2])));
  const seen = new Set<string>();
  for (const operation of specOperations(facts.spec)) {
    const content = operation.requestBody?.content;
    const media = isJsonObject(content) ? content["application/json"] : undefined;
    if (!isJsonObject(media)) continue;
    const raw = media.schema;
    const at: SpecPath =
      isJsonObject(raw) && typeof raw.$ref === "string"
        ? refPath(raw.$ref)
        : [...operationPath(operation), "requestBody", "content", "application/json", "schema"];
    if (!stored(at)) continue;
    const schema = deref<JsonObject | undefined>(facts.spec, raw);
    const properties = isJsonObject(schema?.properties) ? schema.properties : {};
    for (const [name, property] of Object.entries(properties)) {
      const path = [...at, "properties", name];
      const key = path.join("/");
      const resolved = deref<JsonObject | undefined>(facts.spec, property);
      if (seen.has(key) || resolved?.type !== "string" || refusesNul(resolved)) continue;
      seen.add(key);
      facts.report(
        path,
        `${String(at[at.length - 1])}.${name} (${facts.at(path)}) is a string ${operation.operationId} stores, and nothing in the spec refuses U+0000 in it: SQLite reads it back cut at the NUL and PostgreSQL refuses it. State the rule: a pattern such as '^[^\\u0000-\\u001f\\u007f]*$' (the server then answers 400).`,
      );
    }
  }
});
