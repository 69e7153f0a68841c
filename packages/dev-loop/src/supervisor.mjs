// @ts-check
// Runs one service as a child process and restarts it on demand. A standby instance is started
// ahead of time with its modules already imported (standby.mjs), so a restart is: stop the old
// one, tell the standby "go", wait until it answers. That refuses connections for a moment: a
// service that listens in its own process (the server) is run with `handoff` instead
// (handoff-service.mjs), which never does; the mock (Prism listens in a process of its own) is not.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { connect } from "node:net";
import { pathToFileURL } from "node:url";
import { portTakenMessage } from "@animal-store/openapi-engine";
import { createHandoffService } from "./handoff-service.mjs";
import { jsonLogs, relay } from "./output.mjs";

const STANDBY = pathToFileURL(new URL("./standby.mjs", import.meta.url).pathname).href;

/**
 * @typedef {object} ServiceSpec
 * @property {string} name        shown in front of its output
 * @property {string} main        the entry point (node script)
 * @property {string[]} [args]
 * @property {string} cwd
 * @property {Record<string, string | undefined>} env
 * @property {{ host: string, port: number }} address the service is up once it accepts connections here
 * @property {string[]} [preload] modules the standby imports ahead of "go"
 * @property {boolean} [standby] keep a warm standby (default true; false measures without one)
 * @property {string[]} [code] directories holding the service's code (its build output): when
 *   they change, the standby (which imported the old code) is replaced and the service restarted
 * @property {boolean} [handoff] restart without refusing connections (node:cluster; the service
 *   must listen in its own process)
 * @property {(line: string) => void} [print]
 */

/** True when something accepts a TCP connection at `address`. */
function accepting(/** @type {{ host: string, port: number }} */ address) {
  return new Promise((resolve) => {
    const socket = connect(address.port, address.host);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Resolves once the service accepts connections (both services listen only when ready to serve;
 * probing with TCP keeps their request logs free of probes), or rejects when `child` exits first.
 */
async function waitUntilListening(
  /** @type {{ host: string, port: number }} */ address,
  /** @type {import("node:child_process").ChildProcess} */ child,
  timeoutMs = 60_000,
) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`exited (${child.exitCode ?? child.signalCode}) before listening`);
    }
    if (await accepting(address)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`did not listen on ${address.host}:${address.port} within ${timeoutMs} ms`);
}

/** Stops a child: SIGTERM, then SIGKILL if it is still there after `graceMs`. */
export async function stopChild(
  /** @type {import("node:child_process").ChildProcess} */ child,
  graceMs = 5000,
) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A restartable service with a warm standby. */
export function createService(/** @type {ServiceSpec} */ spec) {
  return spec.handoff ? createHandoffService(spec) : createSpawnedService(spec);
}

/** A service restarted by stopping it and starting its standby (see above). */
function createSpawnedService(/** @type {ServiceSpec} */ spec) {
  const print = spec.print ?? ((line) => console.log(line));
  const json = jsonLogs(spec.env);
  /** @type {import("node:child_process").ChildProcess | null} */
  let current = null;
  /** @type {import("node:child_process").ChildProcess | null} */
  let standby = null;
  let stopping = false;

  const spawnStandby = () => {
    const child = spawn(process.execPath, ["--import", STANDBY, spec.main, ...(spec.args ?? [])], {
      cwd: spec.cwd,
      env: {
        ...spec.env,
        DEV_LOOP_PRELOAD: (spec.preload ?? []).map((m) => pathToFileURL(m).href).join(","),
      },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    if (child.stdout) relay(child.stdout, spec.name, print, { json });
    if (child.stderr) relay(child.stderr, spec.name, print, { json });
    child.once("exit", (code, signal) => {
      // Only an exit nobody asked for is news: restarts and stop() replace `current` first.
      if (child === current && !stopping) {
        print(`[dev] ${spec.name} exited (${code ?? signal}); it restarts on the next good save`);
        current = null;
      }
      if (child === standby) standby = null;
    });
    return child;
  };

  return {
    name: spec.name,
    /** True while an instance is serving. */
    get running() {
      return current !== null;
    },
    /** Replaces the running instance (if any) by a fresh one; resolves when it answers. */
    async restart() {
      const old = current;
      current = null;
      if (old) await stopChild(old);
      else if (await accepting(spec.address)) {
        // Not ours (we run none): never measure another process as this service.
        throw new Error(portTakenMessage(spec.address.port, spec.address.host));
      }
      const next = standby ?? spawnStandby();
      standby = null;
      current = next;
      next.send?.("go");
      try {
        await waitUntilListening(spec.address, next);
      } catch (error) {
        await stopChild(next);
        if (current === next) current = null;
        throw error;
      }
    },
    /**
     * The service's code changed (a new build): the standby holds the old modules, so it is
     * replaced, and a running instance is restarted on the new code.
     */
    async reloadCode() {
      const stale = standby;
      standby = null;
      if (stale) await stopChild(stale);
      if (current) await this.restart();
      this.prepare();
    },
    /** Starts the next standby (after a restart, once the CPU is no longer needed for it). */
    prepare() {
      if (!stopping && !standby && spec.standby !== false) standby = spawnStandby();
    },
    /** Stops the running instance and the standby. */
    async stop() {
      stopping = true;
      await Promise.all([current, standby].filter((c) => c !== null).map((c) => stopChild(c)));
      current = null;
      standby = null;
    },
  };
}
