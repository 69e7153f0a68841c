/**
 * The client: per-call time and CPU of raw fetch, bare openapi-fetch and @animal-store/client
 * making the same call against the same server, and the size of its browser bundle.
 */
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import type { paths } from "@animal-store/api-types";
import { createAnimalStoreClient } from "@animal-store/client";
import { build } from "esbuild";
import createClient from "openapi-fetch";
import { basePath } from "./base-path.js";
import { seed } from "./server-bench.js";
import { median } from "./stats.js";
import type { VariantSpec } from "./variant-env.js";
import { type RunningVariant, startVariant, stopVariant } from "./variant-process.js";

export type Name = "rawFetch" | "openapiFetch" | "ours";

/** Each client's median time and bench-process CPU per call (µs) against one server. */
export type ClientTimes = Record<Name, { us: number; cpuUs: number }>;

/** Against our server as shipped, and against raw node:http (the client's cost laid bare). */
export interface ClientFigures {
  calls: number;
  againstOurs: ClientTimes;
  againstRaw: ClientTimes;
}

/**
 * The same call (a page of 20 pets, the JSON read) made three ways against `url`. Each throws
 * unless it got the page, so a fast failure can never pass for a fast client.
 */
function clientCallers(url: string, key: string): Record<Name, () => Promise<void>> {
  const base = `${url}${basePath}`;
  const headers = { authorization: `Bearer ${key}` };
  const bare = createClient<paths>({ baseUrl: base, headers });
  const ours = createAnimalStoreClient({ baseUrl: base, apiKey: key });
  const page = (what: string, data: unknown, error?: unknown) => {
    if (error !== undefined) throw new Error(`${what}: ${JSON.stringify(error)}`);
    if (!Array.isArray(data) || data.length === 0)
      throw new Error(`${what}: no pets in the answer`);
  };
  const query = { params: { query: { limit: 20 } } };
  return {
    rawFetch: async () => {
      const res = await fetch(`${base}/pets?limit=20`, { headers });
      page("raw fetch", res.ok ? await res.json() : undefined, res.ok ? undefined : res.status);
    },
    openapiFetch: async () => {
      const { data, error } = await bare.GET("/pets", query);
      page("openapi-fetch", data, error);
    },
    ours: async () => {
      const { data, error } = await ours.GET("/pets", query);
      page("@animal-store/client", data, error);
    },
  };
}

/**
 * Times the three clients against the server at `url`, interleaved call by call (the order
 * rotating each call), so every moment of the machine, a slow one included, falls on all three
 * alike. The bench process runs nothing but the clients then (every server is a child process),
 * so its CPU per call is the client's own cost. Every call is checked to have worked.
 */
export async function timeClients(url: string, key: string, calls: number): Promise<ClientTimes> {
  const callers = clientCallers(url, key);
  const names = Object.keys(callers) as Name[];
  const warmup = Math.min(500, Math.ceil(calls / 4));
  for (const name of names) for (let i = 0; i < warmup; i++) await callers[name]();
  const us: Record<Name, number[]> = { rawFetch: [], openapiFetch: [], ours: [] };
  const cpuUs: Record<Name, number[]> = { rawFetch: [], openapiFetch: [], ours: [] };
  for (let i = 0; i < calls; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length] as Name;
      const cpu = process.cpuUsage();
      const started = performance.now();
      await callers[name]();
      const took = performance.now() - started;
      const used = process.cpuUsage(cpu);
      us[name].push(took * 1000);
      cpuUs[name].push(used.user + used.system);
    }
  }
  const of = (name: Name) => ({ us: median(us[name]), cpuUs: median(cpuUs[name]) });
  return { rawFetch: of("rawFetch"), openapiFetch: of("openapiFetch"), ours: of("ours") };
}

/** Starts ours (as shipped) and raw node:http, times the clients against each, stops both. */
export async function runClientBench(
  specs: readonly VariantSpec[],
  calls: number,
): Promise<ClientFigures> {
  const running: RunningVariant[] = [];
  const start = async (id: VariantSpec["id"]) => {
    const spec = specs.find((s) => s.id === id);
    if (spec === undefined) throw new Error(`no ${id} variant`);
    const variant = await startVariant(id, spec.env, `${basePath}/pets?limit=20`);
    running.push(variant);
    await seed(variant, 30);
    return variant;
  };
  try {
    const ours = await start("ours-sqlite");
    const raw = await start("raw-http");
    const againstOurs = await timeClients(ours.url, ours.key, calls);
    const againstRaw = await timeClients(raw.url, raw.key, calls);
    return { calls, againstOurs, againstRaw };
  } finally {
    await Promise.all(running.map(stopVariant));
  }
}

/** Bundle sizes in bytes; `ownGzipBytes` leaves openapi-fetch out as a shared dependency. */
export interface ClientSize {
  minifiedBytes: number;
  gzipBytes: number;
  ownGzipBytes: number;
}

/** @animal-store/client's entry bundled for a browser by esbuild, minified, then gzipped. */
export async function measureClientSize(): Promise<ClientSize> {
  const entry = createRequire(import.meta.url).resolve("@animal-store/client");
  const bundle = async (external: string[]) => {
    const { outputFiles } = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      external,
      write: false,
      logLevel: "silent",
    });
    const output = outputFiles[0];
    if (output === undefined) throw new Error("esbuild produced no output for the client");
    return output.contents;
  };
  const whole = await bundle([]);
  const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).byteLength;
  return {
    minifiedBytes: whole.byteLength,
    gzipBytes: gzip(whole),
    ownGzipBytes: gzip(await bundle(["openapi-fetch"])),
  };
}
