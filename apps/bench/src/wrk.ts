/**
 * wrk as the load generator: a generated Lua script sets the request and prints one JSON line from
 * wrk's `done` hook, so nothing depends on parsing wrk's human-readable report.
 */
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runTimed } from "./processes.js";

/** One request shape wrk repeats. */
export interface WrkRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What one wrk run measured. */
export interface WrkResult {
  requests: number;
  durationMs: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Responses outside 2xx/3xx plus socket errors and timeouts: must be 0 for a valid figure. */
  errors: number;
}

const MARK = "BENCH_JSON ";

/** A Lua string literal for printable ASCII; anything else would need escapes LuaJIT lacks. */
function luaString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error(`wrk: non-printable request text: ${value}`);
  return JSON.stringify(value);
}

/** The Lua script wrk runs for `request`. */
export function wrkScript(request: WrkRequest): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`)
    .join("\n");
  return `wrk.method = ${luaString(request.method)}
wrk.path = ${luaString(request.path)}
${request.body === undefined ? "" : `wrk.body = ${luaString(request.body)}`}
${headers}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('${MARK}{"requests":%d,"duration_us":%d,"errors":%d,"p50_us":%d,"p99_us":%d,"max_us":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
`;
}

/** Parses the JSON line the script prints; throws when wrk printed none. */
export function parseWrkOutput(stdout: string): WrkResult {
  const line = stdout.split("\n").find((l) => l.startsWith(MARK));
  if (line === undefined) throw new Error(`wrk printed no result:\n${stdout.slice(-500)}`);
  const raw = JSON.parse(line.slice(MARK.length)) as Record<string, number>;
  const need = (key: string): number => {
    const value = raw[key];
    if (typeof value !== "number") throw new Error(`wrk result lacks ${key}: ${line}`);
    return value;
  };
  const durationMs = need("duration_us") / 1000;
  return {
    requests: need("requests"),
    durationMs,
    reqPerSec: need("requests") / (durationMs / 1000),
    p50Ms: need("p50_us") / 1000,
    p99Ms: need("p99_us") / 1000,
    maxMs: need("max_us") / 1000,
    errors: need("errors"),
  };
}

/** Plain instructions when wrk is missing (it is a Debian package, not an npm one). */
export function wrkMissingMessage(): string | null {
  const found = spawnSync("wrk", ["--version"], { stdio: "ignore" });
  if (!found.error) return null;
  return [
    "pnpm bench needs wrk (the HTTP load generator) and it is not on PATH.",
    "Install it, then run pnpm bench again:",
    "  Debian/Ubuntu: sudo apt-get install -y wrk",
    "  macOS:         brew install wrk",
  ].join("\n");
}

/** Load settings shared by every wrk run. */
export interface WrkLoad {
  connections: number;
  threads: number;
  seconds: number;
}

/** Runs wrk against `baseUrl` with `request` and returns what it measured. */
export async function runWrk(
  baseUrl: string,
  request: WrkRequest,
  load: WrkLoad,
  scriptDir: string,
): Promise<WrkResult> {
  const scriptPath = join(scriptDir, `wrk-${request.method}-${Date.now()}.lua`);
  await writeFile(scriptPath, wrkScript(request));
  const args = [
    `-t${load.threads}`,
    `-c${load.connections}`,
    `-d${load.seconds}s`,
    "--timeout",
    "5s",
    "-s",
    scriptPath,
    baseUrl,
  ];
  const run = await runTimed("wrk", args, { timeoutMs: (load.seconds + 15) * 1000 });
  if (run.code !== 0) throw new Error(`wrk exited ${run.code}: ${run.stderr.slice(-500)}`);
  return parseWrkOutput(run.stdout);
}
