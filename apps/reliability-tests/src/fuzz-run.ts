/**
 * Runs a check's property with fast-check and reports a failure as its minimal request: fast-check
 * shrinks the generated input to the smallest one that still fails, and the report shows what
 * that input sent (method, target, headers, body) and what came back. One seed for the whole run
 * (FUZZ_SEED, printed), each property's own seed derived from it, so a failure replays exactly.
 */
import fc from "fast-check";
import type { RawRequest, RawResponse } from "./http-client.js";

/** The run's seed and number of generated cases per property. */
export interface FuzzSettings {
  seed: number;
  runs: number;
}

/** The default seed: fixed, so every run (and every CI run) generates the same requests. */
export const DEFAULT_SEED = 1616;
const DEFAULT_RUNS = 200;

function wholeNumber(env: Record<string, string | undefined>, name: string, fallback: number) {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new Error(`${name} must be a whole number (got ${JSON.stringify(raw)})`);
  }
  return Number(raw);
}

/** Reads FUZZ_SEED and FUZZ_RUNS; a bad value fails with a message naming it. */
export function fuzzSettings(env: Record<string, string | undefined> = process.env): FuzzSettings {
  const runs = wholeNumber(env, "FUZZ_RUNS", DEFAULT_RUNS);
  if (runs < 1) throw new Error("FUZZ_RUNS must be at least 1");
  return { seed: wholeNumber(env, "FUZZ_SEED", DEFAULT_SEED) | 0, runs };
}

/** One request a check sent and what came back (or why nothing did). */
export interface Exchange {
  request: RawRequest;
  response: RawResponse | null;
  error?: string;
}

/** The exchanges of one evaluation of a property, in order. */
export type Trail = Exchange[];

/** A property's own seed: the run's seed mixed with its title (FNV-1a). */
export function seedFor(settings: FuzzSettings, title: string): number {
  let hash = 0x811c9dc5 ^ settings.seed;
  for (const ch of title) hash = Math.imul(hash ^ (ch.codePointAt(0) ?? 0), 0x01000193);
  return hash | 0;
}

const SHOWN_HEADERS =
  /^(content-type|allow|www-authenticate|retry-after|x-ratelimit-|x-request-id|deprecation|sunset|link|location)/i;

function bodyText(text: string | Buffer | undefined): string {
  if (text === undefined || text.length === 0) return "(no body)";
  const shown = text.toString();
  return shown.length > 400 ? `${shown.slice(0, 400)}... (${shown.length} characters)` : shown;
}

/** An exchange as text: the request (credentials masked) and the answer. */
export function describeExchange({ request, response, error }: Exchange): string {
  const lines = [
    `  ${request.method} ${request.target.length > 300 ? `${request.target.slice(0, 300)}...` : request.target}`,
  ];
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const masked =
      name.toLowerCase() === "authorization" ? value.replace(/^(\S+\s+).+$/, "$1<masked>") : value;
    lines.push(`  ${name}: ${masked}`);
  }
  lines.push(`  ${bodyText(request.body)}`);
  if (!response) return [...lines, `→ no answer: ${error ?? "?"}`].join("\n");
  lines.push(`→ HTTP ${response.status}`);
  for (const [name, value] of response.headers)
    if (SHOWN_HEADERS.test(name)) lines.push(`  ${name}: ${value}`);
  lines.push(`  ${bodyText(response.bodyText)}`);
  return lines.join("\n");
}

function failureText(title: string, trail: Trail, error: unknown, how: string): string {
  const why = error instanceof Error ? error.message : String(error);
  const exchanges =
    trail.length > 0 ? trail.map(describeExchange).join("\n") : "  (nothing was sent)";
  return `${title}: ${how}\nminimal request and answer:\n${exchanges}\nwhy: ${why}`;
}

/**
 * Checks `predicate` on `runs` inputs of `arbitrary`; on failure throws the shrunk input's
 * exchanges. Resolves with the number of inputs checked.
 */
export async function runProperty<T>(
  title: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T, trail: Trail) => Promise<void>,
  settings: FuzzSettings,
  runs = settings.runs,
): Promise<number> {
  let last: { value: T; trail: Trail; error: unknown } | undefined;
  const seed = seedFor(settings, title);
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      const trail: Trail = [];
      try {
        await predicate(value, trail);
      } catch (error) {
        last = { value, trail, error };
        throw error;
      }
    }),
    { seed, numRuns: runs },
  );
  if (!details.failed) return details.numRuns;
  const how = `failed after ${details.numRuns} of ${runs} runs, shrunk ${details.numShrinks} times (FUZZ_SEED=${settings.seed}, property seed ${seed}, path "${details.counterexamplePath}")`;
  if (!last || details.counterexample?.[0] !== last.value) {
    throw new Error(`${title}: ${how}\n${String(details.errorInstance)}`);
  }
  throw new Error(failureText(title, last.trail, last.error, how));
}

/** Checks `predicate` on each fixed case (already minimal); throws the first failure's exchanges. */
export async function runCases<T extends { label: string }>(
  title: string,
  cases: T[],
  predicate: (value: T, trail: Trail) => Promise<void>,
): Promise<number> {
  for (const c of cases) {
    const trail: Trail = [];
    try {
      await predicate(c, trail);
    } catch (error) {
      throw new Error(failureText(title, trail, error, `failed on ${c.label.slice(0, 160)}`));
    }
  }
  return cases.length;
}

/** Throws `message` unless `condition`: the checks' one assertion. */
export function must(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
