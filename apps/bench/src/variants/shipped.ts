/**
 * Variants (a) and (d): the server exactly as shipped, started through its public `startServer`,
 * with a key of the contract's custom plan whose limits are far above anything the bench can send. With
 * BENCH_SERVER_DIST set (the `--compare` variant) it starts a snapshot of an earlier build instead.
 */
import { pathToFileURL } from "node:url";
import { loadBundledSpec, rateLimitPolicy } from "@animal-store/openapi";

const UNREACHABLE_LIMIT = 1_000_000_000;

type StartServer = typeof import("@animal-store/server").startServer;

/** Starts the shipped server (or the snapshot in BENCH_SERVER_DIST) on `env`; issues the key. */
export async function startShipped(env: Record<string, string | undefined>) {
  const snapshot = env.BENCH_SERVER_DIST;
  const { startServer } = (
    snapshot
      ? await import(pathToFileURL(`${snapshot}/index.js`).href)
      : await import("@animal-store/server")
  ) as { startServer: StartServer };
  const server = await startServer(env);
  // A key of the contract's plan with limits of its own.
  const policy = rateLimitPolicy(loadBundledSpec().spec);
  const plan = policy.planNames.find((name) => policy.plans[name]?.custom);
  if (plan === undefined) throw new Error("the contract has no plan with custom limits");
  const key = await server.createKey({
    plan,
    name: "bench",
    perMinute: UNREACHABLE_LIMIT,
    perDay: UNREACHABLE_LIMIT,
  });
  return { url: server.url, key, close: () => server.close() };
}
