// The drill, spec ahead of the code (issue 27): on scratch copies of the repo's spec, an
// operation added without a handler leaves the build, the keys CLI and the server working (it
// answers that operation 500 not_implemented) while typecheck fails naming it; removed again,
// the regenerated types are the committed ones and typecheck passes. Planted faults:
// `pnpm --filter @animal-store/dev-loop planted-faults`.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { basePathOf } from "@animal-store/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDED, compileServer, preparedScratch, repo } from "./drill-support.js";
import { layout } from "./scratch.js";

let ahead: Awaited<ReturnType<typeof preparedScratch>>;
let level: Awaited<ReturnType<typeof preparedScratch>>;
let compiled: Record<string, { code: number; output: string }>;

beforeAll(async () => {
  [ahead, level] = await Promise.all([preparedScratch(true), preparedScratch(false)]);
  // The four compilations at once: each is one tsc run over the server's sources.
  const runs = await Promise.all([
    compileServer(ahead, "typecheck"),
    compileServer(ahead, "build"),
    compileServer(ahead, "keys"),
    compileServer(level, "typecheck"),
  ]);
  compiled = {
    aheadTypecheck: runs[0],
    aheadBuild: runs[1],
    aheadKeys: runs[2],
    levelTypecheck: runs[3],
  };
}, 240_000);

// A test that times out never reaches its own cleanup: whatever it started is stopped here.
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
  ahead?.remove();
  level?.remove();
});

describe("drill: an operation added to the spec without a handler", { timeout: 180_000 }, () => {
  it("typecheck fails naming the missing handler", () => {
    expect(compiled.aheadTypecheck?.code).not.toBe(0);
    expect(compiled.aheadTypecheck?.output).toMatch(
      new RegExp(`handlers\\.check\\.ts.*Property '${ADDED.operationId}' is missing`),
    );
  });

  it("the build and the keys CLI still compile", () => {
    expect(compiled.aheadBuild).toEqual({ code: 0, output: "" });
    expect(compiled.aheadKeys).toEqual({ code: 0, output: "" });
  });

  it("the server starts, says so once, and answers it 500 not_implemented; keys work", async () => {
    const database = `file:${join(ahead.dir, "drill.db")}`;
    const child = spawn(process.execPath, [layout.serverMain], {
      cwd: layout.serverDir,
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "development",
        PORT: "0",
        DATABASE_URL: database,
        OPENAPI_BUNDLE: join(ahead.distDir, "openapi.json"),
        // No metrics listener: its own "listening" line would name another address.
        METRICS_PORT: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    try {
      // The development key is printed on stderr after the listening line: wait for both.
      const ready = () => /"msg":"listening"/.test(stdout) && /\n {2}ask_\S+\n/.test(stderr);
      for (let waited = 0; !ready(); waited += 50) {
        if (waited > 60_000 || child.exitCode !== null) throw new Error(`${stdout}${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const url = /"msg":"listening"[^\n]*"url":"([^"]+)"|"url":"([^"]+)"[^\n]*"msg":"listening"/
        .exec(stdout)
        ?.slice(1)
        .find(Boolean);
      const key = /\n {2}(ask_\S+)\n/.exec(stderr)?.[1];
      const base = `${url}${basePathOf(JSON.parse(readFileSync(join(ahead.distDir, "openapi.json"), "utf8")))}`;
      const auth = { authorization: `Bearer ${key}` };
      const added = await fetch(`${base}${ADDED.path}`, { headers: auth });
      expect(added.status, await added.clone().text()).toBe(500);
      expect(await added.json()).toMatchObject({ code: "not_implemented", status: 500 });
      expect((await fetch(`${base}/pets`, { headers: auth })).status).toBe(200);
      const named = stdout.split("\n").filter((line) => line.includes(ADDED.operationId));
      expect(named).toHaveLength(1);
      expect(named[0]).toContain(`no handler for ${ADDED.operationId}`);

      // The keys CLI as `pnpm keys` runs it (its own build; turbo finds nothing to do).
      const keys = spawn(process.execPath, [join(layout.serverDir, "bin/keys.mjs"), "list"], {
        env: { ...process.env, DATABASE_URL: database },
        stdio: ["ignore", "pipe", "pipe"],
      });
      started.push(keys);
      let listed = "";
      keys.stdout.on("data", (chunk) => {
        listed += String(chunk);
      });
      const [code] = await once(keys, "exit");
      expect(code).toBe(0);
      expect(listed).toMatch(/\bdevelopment\b/);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });
});

describe("drill: the operation removed again", () => {
  it("regenerates exactly the committed types, and typecheck passes", () => {
    const committed = readFileSync(
      join(repo, "packages/api-types/src/generated/openapi.ts"),
      "utf8",
    );
    expect(readFileSync(join(level.dir, "generated/api-types.ts"), "utf8")).toBe(committed);
    expect(compiled.levelTypecheck).toEqual({ code: 0, output: "" });
  });
});
