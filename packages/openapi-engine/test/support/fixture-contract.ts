/**
 * The engine's fixture contracts (`test/fixtures/*.yaml`), read as a bundled contract: each is
 * written self-contained (local `$ref`s only), so parsing the YAML is the bundle, and
 * `@animal-store/openapi`'s generic reader (`deref`, `specOperations`, ...) walks it as it walks
 * any contract. The engine's tests serve these, never an application's contract.
 */
import { readFileSync } from "node:fs";
import type { LoadedSpec, OpenApiDocument } from "@animal-store/openapi";
import { parse } from "yaml";

/** The fixture contracts there are. */
export type FixtureName =
  | "widgets"
  | "security"
  | "bodies"
  | "parameters"
  | "answers"
  | "no-extensions";

const cache = new Map<FixtureName, LoadedSpec>();

/** The fixture `name` as a bundled contract (its JSON text, as /openapi.json serves it, and parsed). */
export function loadFixture(name: FixtureName = "widgets"): LoadedSpec {
  let loaded = cache.get(name);
  if (!loaded) {
    const yaml = readFileSync(new URL(`../fixtures/${name}.yaml`, import.meta.url), "utf8");
    const spec = parse(yaml) as OpenApiDocument;
    loaded = { text: `${JSON.stringify(spec, null, 2)}\n`, spec };
    cache.set(name, loaded);
  }
  return loaded;
}

/** A fresh copy of a fixture to edit (a test's own variant); its text follows the edit. */
export function editedFixture(
  edit: (spec: OpenApiDocument) => void,
  name: FixtureName = "widgets",
): LoadedSpec {
  const spec = structuredClone(loadFixture(name).spec);
  edit(spec);
  return { text: `${JSON.stringify(spec, null, 2)}\n`, spec };
}
