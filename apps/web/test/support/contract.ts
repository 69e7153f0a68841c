// The bundled contract, read through the spec fixture: tests compare what the page shows with the
// spec's examples, plans and headers, never with restated values.
import {
  headerExample as declaredHeader,
  enumOf,
  first,
  policy,
  responseExamples,
} from "@animal-store/test-support/spec";

/** The first named example of a response body (what Prism answers), as `T`. */
export function firstExample<T>(path: string, method: string, status: string): T {
  return first<T>(responseExamples(path, method, status));
}

/** A named example of a response body, as `T`. */
export function namedExample<T>(path: string, method: string, status: string, name: string): T {
  const examples = responseExamples(path, method, status);
  if (!(name in examples)) throw new Error(`${method} ${path} ${status} has no example ${name}`);
  return examples[name] as T;
}

/** The example value of a header a response declares. */
export const headerExample = declaredHeader;

/** The Free plan's requests per minute (`info.x-rate-limit-plans`). */
export const freePerMinute: number = policy.plans.free?.perMinute ?? Number.NaN;

/** The PetStatus values, in spec order. */
export const petStatuses: string[] = enumOf("PetStatus");
