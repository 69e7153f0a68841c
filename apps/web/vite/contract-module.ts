/**
 * `virtual:contract`: the few facts of the contract the UI shows (the status values, the bounds and
 * default of listPets' `limit`), read from the bundled spec at build time, so the app never
 * restates them and ships nothing else of the spec.
 */
import { deref, loadBundledSpec, specOperations } from "@animal-store/openapi";
import type { Plugin } from "vite";

const ID = "virtual:contract";
const RESOLVED = `\0${ID}`;

// biome-ignore lint/suspicious/noExplicitAny: the spec is walked dynamically and every value read is checked.
type Json = any;

/** What the UI needs from the spec; throws naming what is missing. */
export function contractFacts(spec: Json = loadBundledSpec().spec) {
  const operation = specOperations(spec).find((op) => op.operationId === "listPets");
  const limit: Json = operation?.parameters.find((p) => p.name === "limit" && p.in === "query");
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
