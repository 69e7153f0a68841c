/**
 * Starts the two servers the client bench calls (ours as shipped, raw node:http), seeds them, times
 * the clients against each, and stops them.
 */
import { basePath } from "./base-path.js";
import type { ClientFigures } from "./client-bench.js";
import { timeClients } from "./client-bench.js";
import { seed, type VariantSpec } from "./server-bench.js";
import { type RunningVariant, startVariant, stopVariant } from "./variant-process.js";

/** Runs the client bench; both servers are stopped whatever happens. */
export async function runClientSection(
  specs: readonly VariantSpec[],
  options: { quick: boolean },
): Promise<ClientFigures> {
  // Interleaved call by call (client-bench.ts says why); as many calls as 15 batches of 300 were.
  const calls = options.quick ? 600 : 4500;
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
    const againstOurs = await timeClients(ours.url, ours.key, { calls });
    const againstRaw = await timeClients(raw.url, raw.key, { calls });
    return { calls, againstOurs, againstRaw };
  } finally {
    await Promise.all(running.map(stopVariant));
  }
}
