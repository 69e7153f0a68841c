/**
 * Client per-call time and CPU: raw fetch, bare openapi-fetch and @animal-store/client making the
 * same call against the same server, in interleaved batches. The bench process runs nothing but
 * the clients while a batch runs (every server is a child process), so its CPU time per call is
 * what each client costs, the server apart.
 */
import { type Caller, clientCallers } from "./client-callers.js";
import { median, microsPerCall, ratio } from "./stats.js";

/**
 * Per-call figures of the three clients against one server: time and the bench process's CPU
 * (µs, medians of batches), and ratios to raw fetch (medians of per-round ratios: each batch
 * against the raw fetch batch of its own round, so a slower moment of the machine cancels out).
 */
export interface ClientTimes {
  rawFetchUs: number;
  openapiFetchUs: number;
  oursUs: number;
  openapiFetchVsRaw: number;
  oursVsRaw: number;
  rawFetchCpuUs: number;
  openapiFetchCpuUs: number;
  oursCpuUs: number;
  openapiFetchCpuVsRaw: number;
  oursCpuVsRaw: number;
}

/** The client figures: against our server as shipped, and against raw node:http (client cost laid bare). */
export interface ClientFigures {
  callsPerBatch: number;
  rounds: number;
  againstOurs: ClientTimes;
  againstRaw: ClientTimes;
}

/** Options of a client bench run. */
export interface ClientBenchOptions {
  callsPerBatch: number;
  rounds: number;
}

interface Batch {
  us: number;
  cpuUs: number;
}

async function batch(call: Caller, calls: number): Promise<Batch> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < calls; i++) await call();
  const us = microsPerCall(performance.now() - started, calls);
  const used = process.cpuUsage(cpu);
  return { us, cpuUs: (used.user + used.system) / calls };
}

/** The median over rounds of `value` in each round divided by `baseline` in the same round. */
function roundRatio(values: readonly number[], baselines: readonly number[]): number {
  return median(values.map((value, round) => ratio(value, baselines[round] ?? Number.NaN)));
}

/** Times the three clients against the server at `url`; every batch is checked to have worked. */
export async function timeClients(
  url: string,
  key: string,
  options: ClientBenchOptions,
): Promise<ClientTimes> {
  const callers = await clientCallers(url, key);
  const names = Object.keys(callers) as (keyof typeof callers)[];
  for (const name of names) await batch(callers[name], Math.ceil(options.callsPerBatch / 2)); // warm-up
  const times: Record<keyof typeof callers, Batch[]> = {
    rawFetch: [],
    openapiFetch: [],
    ours: [],
  };
  for (let round = 0; round < options.rounds; round++) {
    // Rotate who goes first so no client always follows the same one.
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length] as keyof typeof callers;
      times[name].push(await batch(callers[name], options.callsPerBatch));
    }
  }
  const us = (name: keyof typeof callers) => times[name].map((b) => b.us);
  const cpu = (name: keyof typeof callers) => times[name].map((b) => b.cpuUs);
  return {
    rawFetchUs: median(us("rawFetch")),
    openapiFetchUs: median(us("openapiFetch")),
    oursUs: median(us("ours")),
    openapiFetchVsRaw: roundRatio(us("openapiFetch"), us("rawFetch")),
    oursVsRaw: roundRatio(us("ours"), us("rawFetch")),
    rawFetchCpuUs: median(cpu("rawFetch")),
    openapiFetchCpuUs: median(cpu("openapiFetch")),
    oursCpuUs: median(cpu("ours")),
    openapiFetchCpuVsRaw: roundRatio(cpu("openapiFetch"), cpu("rawFetch")),
    oursCpuVsRaw: roundRatio(cpu("ours"), cpu("rawFetch")),
  };
}
