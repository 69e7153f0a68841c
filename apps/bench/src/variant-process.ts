/**
 * Each server variant runs in its own child process so its RSS is its own and the load generator
 * never shares its event loop. The child reports its address and API key over IPC when ready.
 */
import type { ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { spawnTracked, stopTracked } from "./processes.js";

export type VariantId =
  | "ours-sqlite"
  | "ours-no-metrics"
  | "bare-express"
  | "raw-http"
  | "fastify-glue"
  | "ours-pg-redis"
  | "ours-before";

export interface ReadyMessage {
  type: "ready";
  url: string;
  key: string;
}

export interface RunningVariant {
  id: VariantId;
  url: string;
  key: string;
  child: ChildProcess;
  /** From spawn to the ready message (process start, imports, store, warm-up, listen). */
  startMs: number;
  /** The first request's round trip right after ready: a lazy compile shows up here. */
  firstRequestMs: number;
}

// From the built file, its sibling; from the source under vitest, the built entry (children run
// plain node, which cannot load TypeScript).
const entry = fileURLToPath(
  new URL(
    import.meta.url.endsWith(".ts") ? "../dist/variants/serve.js" : "./variants/serve.js",
    import.meta.url,
  ),
);

/** Starts variant `id` with `env`; rejects with the child's stderr when it exits or stalls. */
export async function startVariant(
  id: VariantId,
  env: Record<string, string>,
  firstPath: string,
): Promise<RunningVariant> {
  const started = performance.now();
  const child = spawnTracked(process.execPath, [entry, id], {
    env: { ...env, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  const ready = await new Promise<ReadyMessage>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${id}: not ready after 30 s\n${stderr}`)),
      30_000,
    );
    child.once("message", (message: ReadyMessage) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${id}: exited with ${code} before it was ready\n${stderr}`));
    });
  }).catch(async (error: unknown) => {
    await stopTracked(child, 500);
    throw error;
  });
  const startMs = performance.now() - started;
  const firstStarted = performance.now();
  const first = await fetch(`${ready.url}${firstPath}`, {
    headers: { authorization: `Bearer ${ready.key}` },
  });
  await first.arrayBuffer();
  const firstRequestMs = performance.now() - firstStarted;
  if (!first.ok) throw new Error(`${id}: first request answered ${first.status}`);
  return { id, url: ready.url, key: ready.key, child, startMs, firstRequestMs };
}

/** Loads the parent's fetch machinery once, so the first-request figure times the server only. */
export async function warmFetch(): Promise<void> {
  const server = createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  for (let i = 0; i < 3; i++) await (await fetch(`http://127.0.0.1:${port}/`)).text();
  await new Promise((resolve) => server.close(resolve));
}

/** A /proc/<pid> file's text, or "" (not Linux, or gone): the figure then reads NaN. */
const procFile = (pid: number | undefined, name: string) =>
  pid === undefined
    ? Promise.resolve("")
    : readFile(`/proc/${pid}/${name}`, "utf8").catch(() => "");

export async function rssMb(pid: number | undefined): Promise<number> {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(await procFile(pid, "status"))?.[1];
  return kb === undefined ? Number.NaN : Number(kb) / 1024;
}

/**
 * CPU time (user + system, every thread) a live process has used so far, in ms: utime and stime
 * of /proc/<pid>/stat, in clock ticks of 100 a second (every mainstream Linux).
 */
export async function cpuMs(pid: number | undefined): Promise<number> {
  const stat = await procFile(pid, "stat");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Stops a variant child (SIGTERM: the server drains and closes its store). */
export const stopVariant = (variant: RunningVariant) => stopTracked(variant.child);
