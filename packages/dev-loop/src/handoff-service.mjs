// @ts-check
// A service restarted without refusing a single connection (the server). The loop is the
// node:cluster primary: it holds the listening socket, and each instance of the service is a
// cluster worker sharing it. A restart starts the next worker (a warm standby with its modules
// imported, standby.mjs) and only once it listens, which the server does after warming up, is the
// old one told to drain (SIGTERM: it stops accepting, finishes what it has, exits). Meanwhile
// connections go to either. A worker that does not start leaves the old one serving: the last
// good build keeps running. Readiness is the worker's own `listening` event, so another process
// on the port is never mistaken for it (the worker reports the port taken, naming its holder).
import cluster from "node:cluster";
import { once } from "node:events";
import { pathToFileURL } from "node:url";
import { jsonLogs, relay } from "./output.mjs";

// The workers accept from the shared socket themselves (SCHED_NONE), rather than the primary
// accepting and passing each connection on (round robin, Node's default on Linux). Under round
// robin a connection handed to a worker that exits before acknowledging it stays with the
// primary, open and never answered: a request sent as the old worker drains could hang forever
// (seen about once in eight restarts). With a shared accept queue a draining worker simply stops
// accepting, and whatever waits in the queue goes to the worker still listening.
cluster.schedulingPolicy = cluster.SCHED_NONE;

const STANDBY = pathToFileURL(new URL("./standby.mjs", import.meta.url).pathname).href;

/** @typedef {import("node:cluster").Worker} Worker */

const gone = (/** @type {Worker} */ worker) =>
  worker.process.exitCode !== null || worker.process.signalCode !== null;

/** Stops a worker: SIGTERM (it drains), then SIGKILL if it is still there after `graceMs`. */
async function stopWorker(/** @type {Worker} */ worker, graceMs = 10_000) {
  if (gone(worker)) return;
  const exited = once(worker, "exit");
  worker.process.kill("SIGTERM");
  const timer = setTimeout(() => worker.process.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Resolves when `worker` listens on `port` (not on another port: the server's warm-up listens on
 * one of its own first); rejects when it exits first or takes longer than `timeoutMs`.
 */
function listening(/** @type {Worker} */ worker, /** @type {number} */ port, timeoutMs = 60_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`did not listen within ${timeoutMs} ms`));
    }, timeoutMs);
    const onListening = (/** @type {{ port: number }} */ address) => {
      if (address.port !== port) return;
      cleanup();
      resolve(undefined);
    };
    const onExit = (/** @type {number | null} */ code, /** @type {string | null} */ signal) => {
      cleanup();
      reject(new Error(`exited (${code ?? signal}) before listening`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      worker.off("listening", onListening);
      worker.off("exit", onExit);
    };
    worker.on("listening", onListening);
    worker.once("exit", onExit);
  });
}

/** A service whose restarts hand the listening socket over (see above). */
export function createHandoffService(/** @type {import("./supervisor.mjs").ServiceSpec} */ spec) {
  const print = spec.print ?? ((line) => console.log(line));
  const json = jsonLogs(spec.env);
  /** @type {Worker | null} */
  let current = null;
  /** @typedef {{ worker: Worker, attached: Promise<void> }} Forked */
  /** @type {Forked | null} */
  let standby = null;
  let stopping = false;

  const fork = () => {
    // Settings are read at each fork, so services with other entry points could share the primary.
    cluster.setupPrimary({
      exec: spec.main,
      args: spec.args ?? [],
      cwd: spec.cwd,
      execArgv: ["--import", STANDBY],
      silent: true,
    });
    const worker = cluster.fork({
      ...spec.env,
      DEV_LOOP_PRELOAD: (spec.preload ?? []).map((m) => pathToFileURL(m).href).join(","),
    });
    const attached = once(worker, "message").then(() => undefined);
    // A worker that exits first never attaches; restart() then sees the exit.
    attached.catch(() => undefined);
    if (worker.process.stdout) relay(worker.process.stdout, spec.name, print, { json });
    if (worker.process.stderr) relay(worker.process.stderr, spec.name, print, { json });
    worker.once("exit", (code, signal) => {
      if (worker === current && !stopping) {
        print(`[dev] ${spec.name} exited (${code ?? signal}); it restarts on the next good save`);
        current = null;
      }
      if (worker === standby?.worker) standby = null;
    });
    return { worker, attached };
  };

  return {
    name: spec.name,
    get running() {
      return current !== null;
    },
    /** Starts the next instance; once it listens, the old one drains. Rejects if it never listens. */
    async restart() {
      const forked = standby ?? fork();
      standby = null;
      const next = forked.worker;
      try {
        const ready = listening(next, spec.address.port);
        await Promise.race([forked.attached, ready]);
        next.send("go");
        await ready;
      } catch (error) {
        await stopWorker(next);
        throw error;
      }
      const old = current;
      current = next;
      if (old) await stopWorker(old);
    },
    /** Its code changed: the standby imported the old modules; restart on the new ones. */
    async reloadCode() {
      const stale = standby;
      standby = null;
      if (stale) await stopWorker(stale.worker);
      if (current) await this.restart();
      this.prepare();
    },
    prepare() {
      if (!stopping && !standby && spec.standby !== false) standby = fork();
    },
    async stop() {
      stopping = true;
      const workers = [current, standby?.worker ?? null].filter((w) => w !== null);
      await Promise.all(workers.map((w) => stopWorker(w)));
      current = null;
      standby = null;
    },
  };
}
