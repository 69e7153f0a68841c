/**
 * Client per-call time and CPU: raw fetch, bare openapi-fetch and @animal-store/client making the
 * same call against the same server, interleaved call by call. The bench process runs nothing but
 * the clients while a batch runs (every server is a child process), so its CPU time per call is
 * what each client costs, the server apart.
 */
import { clientCallers } from "./client-callers.js";
import { median, ratio } from "./stats.js";

/**
 * Per-call figures of the three clients against one server: time and the bench process's CPU
 * (µs), as medians of per-call figures and as means, and ratios of the medians to raw fetch's.
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
  /** Means of per-call time (µs), which stalls of the machine and collections move more. */
  meanUs: { rawFetch: number; openapiFetch: number; ours: number };
}

/** The client figures: against our server as shipped, and against raw node:http (client cost laid bare). */
export interface ClientFigures {
  /** Calls per client against each server, interleaved call by call. */
  calls: number;
  againstOurs: ClientTimes;
  againstRaw: ClientTimes;
}

/** Options of a client bench run. */
export interface ClientBenchOptions {
  /** Calls each client makes, after a warm-up. */
  calls: number;
}

type Name = "rawFetch" | "openapiFetch" | "ours";

const mean = (values: readonly number[]) =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Times the three clients against the server at `url`, interleaved call by call (the order
 * rotating each call), so every moment of the machine, a slow one included, falls on all three
 * alike: on a shared machine the cost of the same work moves by tens of percent within seconds,
 * and batches of calls took their ratios to it. Every call is checked to have worked.
 */
export async function timeClients(
  url: string,
  key: string,
  options: ClientBenchOptions,
): Promise<ClientTimes> {
  const callers = await clientCallers(url, key);
  const names = Object.keys(callers) as Name[];
  const warmup = Math.min(500, Math.ceil(options.calls / 4));
  for (const name of names) for (let i = 0; i < warmup; i++) await callers[name]();
  const us: Record<Name, number[]> = { rawFetch: [], openapiFetch: [], ours: [] };
  const cpuUs: Record<Name, number[]> = { rawFetch: [], openapiFetch: [], ours: [] };
  for (let i = 0; i < options.calls; i++) {
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
  const timeOf = (name: Name) => median(us[name]);
  const cpuOf = (name: Name) => median(cpuUs[name]);
  return {
    rawFetchUs: timeOf("rawFetch"),
    openapiFetchUs: timeOf("openapiFetch"),
    oursUs: timeOf("ours"),
    openapiFetchVsRaw: ratio(timeOf("openapiFetch"), timeOf("rawFetch")),
    oursVsRaw: ratio(timeOf("ours"), timeOf("rawFetch")),
    rawFetchCpuUs: cpuOf("rawFetch"),
    openapiFetchCpuUs: cpuOf("openapiFetch"),
    oursCpuUs: cpuOf("ours"),
    openapiFetchCpuVsRaw: ratio(cpuOf("openapiFetch"), cpuOf("rawFetch")),
    oursCpuVsRaw: ratio(cpuOf("ours"), cpuOf("rawFetch")),
    meanUs: {
      rawFetch: mean(us.rawFetch),
      openapiFetch: mean(us.openapiFetch),
      ours: mean(us.ours),
    },
  };
}
