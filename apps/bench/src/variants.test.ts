/**
 * The comparison is fair only if the other stacks do the shipped server's work. Each comparison
 * variant is started as the bench starts it and sent the bench's own scenarios, then two requests
 * the spec refuses; its answers must match the shipped server's: status, body, and the headers
 * every answer carries (security headers, no-store, X-Request-Id, X-RateLimit-*, RateLimit-Policy,
 * RateLimit).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { staticResponseHeaders } from "@animal-store/openapi-engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basePath, pageMax } from "./base-path.js";
import { SCENARIOS, seed } from "./server-bench.js";
import { createVariantSpecs } from "./variant-env.js";
import {
  type RunningVariant,
  startVariant,
  stopVariant,
  type VariantId,
  warmFetch,
} from "./variant-process.js";
import type { WrkRequest } from "./wrk.js";

const FIXED_HEADERS = [...staticResponseHeaders()].map(([name]) => name.toLowerCase());

const SHIPPED: VariantId = "ours-sqlite";
const COMPARED: VariantId[] = ["fastify-glue"];
// Differ on every answer by design (time, connection handling, a fresh id, the window's end).
const PER_ANSWER = new Set(["date", "connection", "keep-alive", "x-ratelimit-reset"]);

interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

async function send(variant: RunningVariant, request: WrkRequest): Promise<Answer> {
  const res = await fetch(`${variant.url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of res.headers) {
    if (PER_ANSWER.has(name)) continue;
    // RateLimit's counts must match; its seconds to each reset follow the clock, like
    // X-RateLimit-Reset.
    headers[name] = name === "ratelimit" ? value.replace(/;t=\d+/g, ";t=(seconds)") : value;
  }
  return { status: res.status, body: await res.json(), headers };
}

let scratch: string;
const running = new Map<VariantId, RunningVariant>();

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "bench-variants-"));
  const { specs } = await createVariantSpecs(scratch);
  await warmFetch();
  for (const id of [SHIPPED, ...COMPARED]) {
    const spec = specs.find((s) => s.id === id);
    if (spec === undefined) throw new Error(`no variant ${id}`);
    const variant = await startVariant(id, spec.env, `${basePath}/pets?limit=1`);
    running.set(id, variant);
    // More pets than the largest page, so every list answer has a next link.
    await seed(variant, pageMax + 5);
  }
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([...running.values()].map(stopVariant));
  await rm(scratch, { recursive: true, force: true });
});

/** The requests compared: the bench's scenarios, then a page past the spec's largest and no key. */
function requests(key: string): Array<[string, WrkRequest]> {
  const list = SCENARIOS.find((s) => s.id === "list20")?.request(key) as WrkRequest;
  return [
    ...SCENARIOS.map((s): [string, WrkRequest] => [s.id, s.request(key)]),
    ["a page over the maximum", { ...list, path: `${basePath}/pets?limit=${pageMax + 1}` }],
    ["no key", { ...list, headers: {} }],
  ];
}

// Every server sees the same calls in the same order, so ids and counters match exactly.
describe(`${COMPARED.join(" and ")} against the shipped server`, () => {
  it.each(requests("").map(([label], index) => ({ label, index })))(
    "$label: the same status, body and headers",
    async ({ label, index }) => {
      const request = (v: RunningVariant) => (requests(v.key)[index] as [string, WrkRequest])[1];
      const ours = running.get(SHIPPED) as RunningVariant;
      const expected = await send(ours, request(ours));
      for (const id of COMPARED) {
        const theirs = running.get(id) as RunningVariant;
        const actual = await send(theirs, request(theirs));
        const where = `${id}, ${label}`;
        expect(actual.status, where).toBe(expected.status);
        if (expected.status < 400) {
          expect(actual.body, where).toEqual(expected.body);
          expect(actual.headers, where).toEqual({
            ...expected.headers,
            "x-request-id": actual.headers["x-request-id"],
          });
          continue;
        }
        // Each stack words its own errors, and Fastify validates before its security handler
        // counts the call; the error's shape and the fixed headers match.
        expect(Object.keys(actual.body as object).sort(), where).toEqual(
          Object.keys(expected.body as object).sort(),
        );
        for (const name of [...FIXED_HEADERS, "content-type", "x-request-id"]) {
          expect(actual.headers, `${where}: ${name}`).toHaveProperty(name);
          if (name !== "x-request-id")
            expect(actual.headers[name], where).toBe(expected.headers[name]);
        }
      }
    },
  );
});
