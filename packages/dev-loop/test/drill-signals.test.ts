// The drill, stopping (issue 27): `pnpm start` and `pnpm dev` as a user runs them, stopped with
// SIGTERM (to pnpm alone, as a process manager does) and SIGINT (to the whole process group, as
// Ctrl-C does): each exits 0 without a pnpm error banner, and nothing of it is left running or
// listening. Scratch databases and free ports; `pnpm dev` runs the server and the mock on the
// repo's spec (it rewrites nothing when the spec and dist/ agree). Planted faults:
// `pnpm --filter @animal-store/dev-loop planted-faults`.

import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@animal-store/test-support/free-port";
import { afterAll, describe, expect, it } from "vitest";
import { processGroup, repo, stillInGroup } from "./drill-support.js";

const temp = mkdtempSync(join(tmpdir(), "animal-store-drill-"));
// A test that times out never reaches its own cleanup: its process groups are killed here.
const groups: number[] = [];
afterAll(() => {
  for (const pgid of groups) for (const pid of processGroup(pgid)) process.kill(pid, "SIGKILL");
  rmSync(temp, { recursive: true, force: true });
});

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => resolve(socket.destroy() && false));
    socket.once("error", () => resolve(true));
  });

/** Runs `pnpm <script>` in a process group of its own until `ready` shows, then sends `signal`. */
async function runAndStop(
  script: string[],
  env: Record<string, string>,
  ready: RegExp,
  signal: "SIGTERM" | "SIGINT",
) {
  const child = spawn("pnpm", script, {
    cwd: repo,
    detached: true,
    env: { ...process.env, NO_COLOR: "1", TURBO_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pgid = child.pid as number;
  groups.push(pgid);
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr.on("data", (chunk) => {
    output += String(chunk);
  });
  const exited = once(child, "exit") as Promise<[number | null, string | null]>;
  try {
    for (let waited = 0; !ready.test(output); waited += 100) {
      if (waited > 150_000 || child.exitCode !== null) throw new Error(`not ready:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Ctrl-C signals the whole group; a process manager signals pnpm alone.
    if (signal === "SIGINT") process.kill(-pgid, "SIGINT");
    else child.kill("SIGTERM");
    const [code, killedBy] = await exited;
    // What the group still holds a moment after pnpm is gone.
    await new Promise((resolve) => setTimeout(resolve, 500));
    return { code, killedBy, output, left: stillInGroup(pgid) };
  } finally {
    for (const pid of processGroup(pgid)) process.kill(pid, "SIGKILL");
  }
}

describe("drill: stopping pnpm start and pnpm dev", { timeout: 240_000 }, () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "pnpm start on %s: the server drains, exit 0, no banner, nothing left",
    async (signal) => {
      const port = await freePort();
      const run = await runAndStop(
        ["start"],
        { PORT: String(port), DATABASE_URL: `file:${join(temp, `start-${signal}.db`)}` },
        /"msg":"listening"/,
        signal,
      );
      // A first run builds for a while: it says what, and when it is done (issue 52).
      expect(run.output).toMatch(
        /pnpm start: building the server .*\n(.*\n)*pnpm start: built in /,
      );
      expect(run.output).toMatch(new RegExp(`"signal":"${signal}","msg":"shutting down"`));
      expect(run.output).toMatch(/"msg":"closed"/);
      expect(run.output).not.toMatch(/ERR_PNPM|ELIFECYCLE/);
      expect([run.code, run.killedBy]).toEqual([0, null]);
      expect(run.left).toEqual([]);
      expect(await refused(port)).toBe(true);
    },
  );

  it.each(["SIGTERM", "SIGINT"] as const)(
    "pnpm dev on %s: the loop stops the server, the mock and the standbys, exit 0, nothing left",
    async (signal) => {
      const [port, mockPort] = [await freePort(), await freePort()];
      const run = await runAndStop(
        ["dev", "--", "--no-docs"],
        {
          PORT: String(port),
          MOCK_PORT: String(mockPort),
          DATABASE_URL: `file:${join(temp, `dev-${signal}.db`)}`,
        },
        /\[dev\] watching openapi\//,
        signal,
      );
      expect(run.output).toMatch(/\[dev\] start: started (server|mock) in .*, (server|mock) in/);
      expect(run.output).toContain(`[dev] ${signal}: stopping`);
      expect(run.output).not.toMatch(/ERR_PNPM|ELIFECYCLE/);
      expect([run.code, run.killedBy]).toEqual([0, null]);
      expect(run.left).toEqual([]);
      expect(await refused(port)).toBe(true);
      expect(await refused(mockPort)).toBe(true);
    },
  );
});
