/**
 * Variants (a) and (d): the server exactly as shipped, started through its public `startServer`,
 * with a key of the contract's custom plan whose limits are far above anything the bench can send. With
 * BENCH_SERVER_DIST set (the `--compare` variant) it starts a snapshot of an earlier build instead.
 */
import { pathToFileURL } from "node:url";
import { loadBundledSpec } from "@animal-store/openapi";
import { benchKeyOptions } from "./comparison-support.js";

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
  const key = await server.createKey(benchKeyOptions(loadBundledSpec().spec));
  return { url: server.url, key, close: () => server.close() };
}
