/**
 * `virtual:contract`: the few facts of the contract the UI shows (the status values, the bounds and
 * default of listPets' `limit`), read from the bundled spec at build time, so the app never
 * restates them and ships nothing else of the spec.
 */
import type { Plugin } from "vite";
import { bundledSpec } from "./api-url.mjs";

const ID = "virtual:contract";
const RESOLVED = `\0${ID}`;

// biome-ignore lint/suspicious/noExplicitAny: the spec is walked dynamically and every value read is checked.
type Json = any;

function deref(spec: Json, node: Json): Json {
  let current = node;
  while (current && typeof current.$ref === "string") {
    const path = current.$ref.replace(/^#\//, "").split("/");
    current = path.reduce((acc: Json, key: string) => acc?.[key], spec);
  }
  return current;
}

/** What the UI needs from the spec; throws naming what is missing. */
export function contractFacts(spec: Json = bundledSpec()) {
  const operation = Object.values(spec.paths ?? {})
    .flatMap((item: Json) => Object.values(item))
    .find((op: Json) => op?.operationId === "listPets") as Json;
  const limit = (operation?.parameters ?? [])
    .map((p: Json) => deref(spec, p))
    .find((p: Json) => p.name === "limit" && p.in === "query");
  const statuses = deref(spec, spec.components?.schemas?.PetStatus)?.enum;
  const schema = limit && deref(spec, limit.schema);
  if (!Array.isArray(statuses) || !schema || typeof schema.maximum !== "number") {
    throw new Error("the bundled spec lacks PetStatus's enum or listPets' limit parameter");
  }
  return {
    petStatuses: statuses as string[],
    limitParameter: { minimum: schema.minimum, maximum: schema.maximum, default: schema.default },
  };
}

/** The Vite plugin that serves `virtual:contract`. */
export function contractModule(): Plugin {
  return {
    name: "animal-store-contract",
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      const facts = contractFacts();
      return Object.entries(facts)
        .map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`)
        .join("\n");
    },
  };
}
