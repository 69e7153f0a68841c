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

/** The server variants the bench compares. */
export type VariantId =
  | "ours-sqlite"
  | "ours-no-metrics"
  | "bare-express"
  | "raw-http"
  | "fastify-glue"
  | "hono-ajv"
  | "ours-pg-redis"
  | "ours-before";

/** The message a variant child sends once it listens. */
export interface ReadyMessage {
  type: "ready";
  url: string;
  key: string;
}

/** A variant child that is listening. */
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
  nodeArgs: string[] = [],
  how: {
    /** A command and its arguments to run node under (valgrind). */
    wrapper?: readonly string[];
    /** How long to wait for the ready message (default 30 s). */
    readyTimeoutMs?: number;
  } = {},
): Promise<RunningVariant> {
  const started = performance.now();
  const [command, ...wrapperArgs] = how.wrapper ?? [process.execPath];
  const args = how.wrapper ? [...wrapperArgs, process.execPath] : [];
  const readyTimeoutMs = how.readyTimeoutMs ?? 30_000;
  const child = spawnTracked(command as string, [...args, ...nodeArgs, entry, id], {
    env: { ...env, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  const ready = await new Promise<ReadyMessage>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${id}: not ready after ${readyTimeoutMs / 1000} s\n${stderr}`)),
      readyTimeoutMs,
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

/** Resident set size of a live process in MB, from /proc (Linux). */
export async function rssMb(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  return kb === undefined ? Number.NaN : Number(kb) / 1024;
}

// Clock ticks per second of /proc/<pid>/stat times; 100 on every mainstream Linux.
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) a live process has used so far, in ms, from /proc (Linux). */
export async function cpuMs(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Stops a variant child (SIGTERM: the server drains and closes its store). */
export async function stopVariant(variant: RunningVariant): Promise<void> {
  await stopTracked(variant.child);
}
