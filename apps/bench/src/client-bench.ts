/**
 * Client per-call time: raw fetch, bare openapi-fetch and @animal-store/client (with its
 * middlewares) making the same call against the same server, in interleaved batches.
 */
import { type Caller, clientCallers } from "./client-callers.js";
import { median, microsPerCall, ratio } from "./stats.js";

/** Per-call times in µs of the three clients against one server. */
export interface ClientTimes {
  rawFetchUs: number;
  openapiFetchUs: number;
  oursUs: number;
  openapiFetchVsRaw: number;
  oursVsRaw: number;
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

async function batch(call: Caller, calls: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < calls; i++) await call();
  return microsPerCall(performance.now() - started, calls);
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
  const times: Record<keyof typeof callers, number[]> = {
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
  const rawFetchUs = median(times.rawFetch);
  const openapiFetchUs = median(times.openapiFetch);
  const oursUs = median(times.ours);
  return {
    rawFetchUs,
    openapiFetchUs,
    oursUs,
    openapiFetchVsRaw: ratio(openapiFetchUs, rawFetchUs),
    oursVsRaw: ratio(oursUs, rawFetchUs),
  };
}
