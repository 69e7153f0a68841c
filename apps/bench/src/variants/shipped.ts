/**
 * Variants (a) and (d): the server exactly as shipped, started through its public `startServer`,
 * with a key of the contract's custom plan whose limits are far above anything the bench can send. With
 * BENCH_SERVER_DIST set (the `--compare` variant) it starts a snapshot of an earlier build instead.
 */
import { pathToFileURL } from "node:url";
import { loadBundledSpec, type OpenApiDocument, rateLimitPolicy } from "@animal-store/openapi";

type StartServer = typeof import("@animal-store/server").startServer;

/** The bench key's settings: the contract's custom plan, limits no bench run can reach. */
export function benchKeyOptions(spec: OpenApiDocument) {
  const policy = rateLimitPolicy(spec);
  const plan = policy.planNames.find((name) => policy.plans[name]?.custom);
  if (plan === undefined) throw new Error("the contract has no plan with custom limits");
  return { plan, name: "bench", perMinute: 1_000_000_000, perDay: 1_000_000_000 };
}

/** Starts the shipped server (or the snapshot in BENCH_SERVER_DIST) on `env`; issues the key. */
export async function startShipped(env: Record<string, string | undefined>) {
  const snapshot = env.BENCH_SERVER_DIST;
  const { startServer } = (
    snapshot
      ? await import(pathToFileURL(`${snapshot}/index.js`).href)
      : await import("@animal-store/server")
  ) as { startServer: StartServer };
  const server = await startServer(env);
  const key = await server.createKey(benchKeyOptions(loadBundledSpec().spec));
  return { url: server.url, key, close: () => server.close() };
}
