/**
 * Child-process entry of one server variant: starts it, then tells the bench its URL and an API key
 * over IPC. SIGTERM closes it (the shipped server drains and closes its store and limiter).
 */
import type { ReadyMessage, VariantId } from "../variant-process.js";

// Imports are dynamic so each child loads only its own variant's code: RSS is per variant.

async function start(id: VariantId): Promise<{ url: string; key: string; close(): Promise<void> }> {
  if (id.startsWith("ours-")) {
    const { startShipped } = await import("./shipped.js");
    return startShipped(process.env);
  }
  if (id === "fastify-glue") {
    const { startFastifyGlue } = await import("./fastify-glue.js");
    return startFastifyGlue(process.env);
  }
  const { openBaselineHandlers } = await import("./baseline-handlers.js");
  const handlers = await openBaselineHandlers(process.env);
  // The baselines have no auth: any key is accepted, so the bench sends the same headers to all.
  const url =
    id === "bare-express"
      ? await (await import("./bare-express.js")).startBareExpress(handlers)
      : await (await import("./raw-http.js")).startRawHttp(handlers);
  return { url, key: "baseline-accepts-any-key", close: async () => {} };
}

const id = process.argv[2] as VariantId;
const running = await start(id);
process.once("SIGTERM", () => {
  running.close().finally(() => process.exit(0));
});
process.send?.({ type: "ready", url: running.url, key: running.key } satisfies ReadyMessage);
