/**
 * wrk as the load generator: a generated Lua script sets the request and prints one JSON line from
 * wrk's `done` hook, so nothing depends on parsing wrk's human-readable report.
 */
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runTimed } from "./processes.js";

export interface WrkRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

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

export interface WrkLoad {
  connections: number;
  threads: number;
  seconds: number;
}

const MARK = "BENCH_JSON ";

/** A Lua string literal for printable ASCII; anything else would need escapes LuaJIT lacks. */
function luaString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error(`wrk: non-printable request text: ${value}`);
  return JSON.stringify(value);
}

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
  if (!spawnSync("wrk", ["--version"], { stdio: "ignore" }).error) return null;
  return "pnpm bench needs wrk (the HTTP load generator) on PATH: sudo apt-get install -y wrk (Debian/Ubuntu) or brew install wrk (macOS), then run it again.";
}

export async function runWrk(
  baseUrl: string,
  request: WrkRequest,
  load: WrkLoad,
  scriptDir: string,
): Promise<WrkResult> {
  const script = join(scriptDir, `wrk-${request.method}-${Date.now()}.lua`);
  await writeFile(script, wrkScript(request));
  const { threads, connections, seconds } = load;
  const args = [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, "--timeout", "5s"];
  const run = await runTimed("wrk", [...args, "-s", script, baseUrl], {
    timeoutMs: (seconds + 15) * 1000,
  });
  if (run.code !== 0) throw new Error(`wrk exited ${run.code}: ${run.stderr.slice(-500)}`);
  return parseWrkOutput(run.stdout);
}
