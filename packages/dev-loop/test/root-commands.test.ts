// Every root script and bin, as a user types it (issue 52):
//   - `--help` and `-h` print the usage on stdout and exit 0, before anything is built, started or
//     written (stderr stays empty: the build step announces itself there; the work tree is as it
//     was; no `./--help` folder);
//   - an unknown option is refused with exit 2 and one line;
//   - every script that starts something long-running, stopped with SIGTERM (to pnpm alone, as a
//     process manager does) and SIGINT (to the whole group, as Ctrl-C does), exits 0 without a
//     pnpm error banner and leaves nothing running or listening.
// The scripts come from package.json and scripts/commands.mjs, so a new one is walked here with
// no edit. NO_BUILD=1 skips the build step of the started scripts (turbo has built them for this
// task); the help and option checks run without it, so a build before them would show.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { freePort } from "@animal-store/test-support/free-port";
import { afterAll, describe, expect, it } from "vitest";
import { processGroup, repo, stillInGroup } from "./drill-support.js";

type Command = { longRunning?: boolean; usage: string };
const { COMMANDS } = (await import(pathToFileURL(join(repo, "scripts/commands.mjs")).href)) as {
  COMMANDS: Record<string, Command>;
};
const scripts: Record<string, string> = JSON.parse(
  readFileSync(join(repo, "package.json"), "utf8"),
).scripts;
const names = Object.keys(scripts);
const bins = Object.keys(
  JSON.parse(readFileSync(join(repo, "apps/server/package.json"), "utf8")).bin ?? {},
);
const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", TURBO_TELEMETRY_DISABLED: "1" };
/** `pnpm docs` is pnpm's own command. */
const pnpmArgs = (name: string) => (name === "docs" ? ["run", "docs"] : [name]);
const tree = () => execFileSync("git", ["status", "--porcelain"], { cwd: repo, encoding: "utf8" });

describe("every root script and bin helps safely", { timeout: 120_000 }, () => {
  it("package.json runs each script through scripts/run.mjs, and its table has each", () => {
    for (const name of names) expect(scripts[name]).toBe(`exec node scripts/run.mjs ${name}`);
    expect(Object.keys(COMMANDS).sort()).toEqual([...names].sort());
  });

  it.each([
    ...names.map((name) => ["script", name] as const),
    ...bins.map((name) => ["bin", name] as const),
  ])("%s %s: --help and -h print the usage, exit 0, no side effect", (kind, name) => {
    const before = tree();
    // --help as a user types it, through pnpm; -h straight to what pnpm runs (pnpm adds nothing).
    const binFile = (bin: string) =>
      join(
        "apps/server",
        JSON.parse(readFileSync(join(repo, "apps/server/package.json"), "utf8")).bin[bin],
      );
    const ways: [string, string[]][] = [
      ["pnpm", [...pnpmArgs(name), "--help"]],
      kind === "script"
        ? ["node", ["scripts/run.mjs", name, "-h"]]
        : ["node", [binFile(name), "-h"]],
    ];
    for (const [file, argv] of ways) {
      const result = spawnSync(file, argv, {
        cwd: repo,
        env,
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(result.stdout).toMatch(/usage/i);
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
    }
    expect(existsSync(join(repo, "--help"))).toBe(false);
    expect(existsSync(join(repo, "-h"))).toBe(false);
    expect(tree()).toBe(before);
  });

  it.each(names)("%s: an unknown option is refused with exit 2 and one line", (name) => {
    const direct = spawnSync("node", ["scripts/run.mjs", name, "--no-such-option"], {
      cwd: repo,
      env,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(direct.stderr).toMatch(/^pnpm [\w: -]+: .*--no-such-option.*\n$/);
    expect(direct.status).toBe(2);
    const viaPnpm = spawnSync("pnpm", [...pnpmArgs(name), "--no-such-option"], {
      cwd: repo,
      env,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(viaPnpm.status).toBe(2);
  });

  it.each(bins)("bin %s: an unknown command is refused with exit 2 and one line", (name) => {
    const result = spawnSync("pnpm", [name, "--no-such-option"], {
      cwd: repo,
      env,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(result.stderr).toMatch(/^[^\n]*--no-such-option[^\n]*\n$/);
    expect(result.status).toBe(2);
  });
});

const temp = mkdtempSync(join(tmpdir(), "animal-store-commands-"));
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

const listening = async (port: number) => !(await refused(port));

/** How each long-running script is started here: its arguments, and the ports it listens on. */
async function launch(name: string, signal: string) {
  const [port, mockPort, webPort] = [await freePort(), await freePort(), await freePort()];
  const database = `file:${join(temp, `${name}-${signal}.db`)}`;
  const base = { PORT: String(port), MOCK_PORT: String(mockPort), WEB_PORT: String(webPort) };
  const ports: Record<string, number[]> = {
    start: [port],
    mock: [mockPort],
    web: [webPort, mockPort],
    dev: [port, mockPort],
  };
  const args: Record<string, string[]> = { dev: ["--", "--no-docs"] };
  if (!ports[name]) throw new Error(`no launch settings for the long-running script ${name}`);
  return {
    args: [...pnpmArgs(name), ...(args[name] ?? [])],
    env: { ...base, METRICS_PORT: "0", DATABASE_URL: database, NO_BUILD: "1" },
    ports: ports[name] as number[],
  };
}

describe("a turbo script's own arguments", { timeout: 180_000 }, () => {
  it("pnpm bench -- <args> hands what follows the -- to the bench, as turbo run bench -- <args>", () => {
    // A bad value the bench itself refuses before it starts anything: the runner must not take
    // it for one of its own (unknown) options.
    const result = spawnSync("pnpm", ["bench", "--", "--rounds=0"], {
      cwd: repo,
      env,
      encoding: "utf8",
      timeout: 170_000,
    });
    const output = `${result.stdout}${result.stderr}`;
    expect(output).not.toMatch(/Unknown option/);
    expect(output).toMatch(/bench: .*rounds/);
    expect(result.status).not.toBe(0);
  });
});

describe("every long-running root script stops cleanly", { timeout: 240_000 }, () => {
  const longRunning = names.filter((name) => COMMANDS[name]?.longRunning);

  it("the table marks the scripts that start servers", () => {
    expect(longRunning).toEqual(expect.arrayContaining(["start", "mock", "web", "dev"]));
  });

  it.each(
    longRunning
      .filter((name) => name !== "drill:spec-edits")
      .flatMap((name) => [
        [name, "SIGTERM"],
        [name, "SIGINT"],
      ]) as [string, "SIGTERM" | "SIGINT"][],
  )("pnpm %s on %s: exit 0, no banner, nothing left running or listening", async (name, signal) => {
    const how = await launch(name, signal);
    const child = spawn("pnpm", how.args, {
      cwd: repo,
      detached: true,
      env: { ...env, ...how.env },
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
      for (let waited = 0; ; waited += 200) {
        const up = await Promise.all(how.ports.map(listening));
        if (up.every(Boolean)) break;
        if (waited > 120_000 || child.exitCode !== null) throw new Error(`not ready:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      if (signal === "SIGINT") process.kill(-pgid, "SIGINT");
      else child.kill("SIGTERM");
      const [code, killedBy] = await exited;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(output).not.toMatch(/ERR_PNPM|ELIFECYCLE/);
      expect([code, killedBy]).toEqual([0, null]);
      expect(stillInGroup(pgid)).toEqual([]);
      for (const port of how.ports) expect(await refused(port)).toBe(true);
    } finally {
      for (const pid of processGroup(pgid)) process.kill(pid, "SIGKILL");
    }
  });
});

describe("a quiet first run", { timeout: 120_000 }, () => {
  it("npm reads the repository's .npmrc without a warning (pnpm's settings are elsewhere)", () => {
    // As a shell has it: without the npm_config_* variables pnpm sets for the scripts it runs.
    const shell = Object.fromEntries(
      Object.entries(env).filter(([name]) => !name.toLowerCase().startsWith("npm_config_")),
    );
    const result = spawnSync("npm", ["config", "get", "engine-strict"], {
      cwd: repo,
      env: shell,
      encoding: "utf8",
    });
    expect(result.stderr).not.toMatch(/warn/i);
    expect(result.stdout.trim()).toBe("true");
  });

  it("turbo's telemetry notice never shows, on a machine that has not been told", () => {
    const home = mkdtempSync(join(tmpdir(), "animal-store-home-"));
    try {
      const { TURBO_TELEMETRY_DISABLED: _, DO_NOT_TRACK: __, ...untold } = env;
      const result = spawnSync("node", ["scripts/run.mjs", "typecheck", "--dry", "json"], {
        cwd: repo,
        env: { ...untold, HOME: home, XDG_CONFIG_HOME: join(home, ".config") },
        encoding: "utf8",
      });
      expect(result.status).toBe(0);
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/collects completely anonymous/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

/** Processes whose working directory is under `dir`. */
function workingIn(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(dir)) found.push(pid);
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

describe("the spec-edit drill stops cleanly", { timeout: 240_000 }, () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "pnpm drill:spec-edits on %s, mid-step: exit 0, no banner, nothing of its steps left",
    async (signal) => {
      const child = spawn("pnpm", ["drill:spec-edits", "plan-numbers"], {
        cwd: repo,
        detached: true,
        env: { ...env, NO_BUILD: "1" },
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
      let scratch = "";
      try {
        for (let waited = 0; ; waited += 200) {
          scratch = /scratch (\S+)/.exec(output)?.[1] ?? "";
          // A step is running in the scratch copy (the copy, then pnpm install).
          if (scratch && workingIn(scratch).length > 0) break;
          if (waited > 120_000 || child.exitCode !== null) throw new Error(`no step:\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        if (signal === "SIGINT") process.kill(-pgid, "SIGINT");
        else child.kill("SIGTERM");
        const [code, killedBy] = await exited;
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(output).not.toMatch(/ERR_PNPM|ELIFECYCLE/);
        expect([code, killedBy]).toEqual([0, null]);
        expect(stillInGroup(pgid)).toEqual([]);
        expect(workingIn(scratch)).toEqual([]);
      } finally {
        for (const pid of processGroup(pgid)) process.kill(pid, "SIGKILL");
        if (scratch) rmSync(scratch, { recursive: true, force: true });
      }
    },
  );
});

describe("pnpm run docs stops cleanly", { timeout: 300_000 }, () => {
  // The page the stopped builds left as it was, or, cut while written, put back from turbo's cache.
  afterAll(() => {
    spawnSync("pnpm", ["run", "docs"], { cwd: repo, env, stdio: "ignore", timeout: 180_000 });
  });

  it.each(["SIGTERM", "SIGINT"] as const)(
    "on %s while it builds: exit 0, no banner, nothing of the build left",
    async (signal) => {
      // TURBO_FORCE: a build that takes a while, whatever turbo's cache holds.
      const child = spawn("pnpm", ["run", "docs"], {
        cwd: repo,
        detached: true,
        env: { ...env, TURBO_FORCE: "true" },
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
      // Stopped while the docs page itself is built (the spec's tasks, which other suites read,
      // are done by then and are not cut halfway).
      const building = () => workingIn(join(repo, "apps/docs"));
      try {
        for (let waited = 0; building().length === 0; waited += 100) {
          if (waited > 180_000 || child.exitCode !== null) throw new Error(`no build:\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        if (signal === "SIGINT") process.kill(-pgid, "SIGINT");
        else child.kill("SIGTERM");
        const [code, killedBy] = await exited;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(output).not.toMatch(/ERR_PNPM|ELIFECYCLE/);
        expect([code, killedBy]).toEqual([0, null]);
        expect(stillInGroup(pgid)).toEqual([]);
        expect(building()).toEqual([]);
      } finally {
        for (const pid of processGroup(pgid)) process.kill(pid, "SIGKILL");
      }
    },
  );
});
