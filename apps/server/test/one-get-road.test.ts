/**
 * The files one GET of the contract's paged list (listPets, a page of its default size) passes
 * through, measured: the built server as shipped (`node dist/main.js`, `NODE_ENV=production`:
 * access lines and metrics on, the in-process rate limiter, SQLite), V8's precise coverage
 * started in it before its first module loads (support/coverage-probe.mjs) and read over IPC
 * around one request, counts every function called while that request is answered; the source
 * files of the engine and of the Animal Store holding one of them must be the list the engine
 * README gives (its section "One `GET <the list>`, file by file"), no more and no fewer. A file
 * added to the road, or one the README names that the request no longer reaches, fails here; so
 * does a road longer than issue 49's bound.
 */
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@animal-store/test-support/free-port";
import { basePath, pagedList } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contract, exampleCall } from "./support/contract.js";
import { createKeyIn, kill, type ServerProcess, spawnServer } from "./support/server-process.js";
import { tempDir } from "./support/test-app.js";

const REPO = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const ENGINE = "packages/openapi-engine";
const APP = "apps/server";
const README = join(REPO, ENGINE, "README.md");
const PROBE = fileURLToPath(new URL("./support/coverage-probe.mjs", import.meta.url));
/** Issue 49's bound on the road: source files of the engine and the application together. */
const MOST_FILES = 15;

/** The contract's paged list (listPets), asked for a page of its default size. */
const list = pagedList();
const pageSize = list.defaultSize;

/** The repository path of the source file `url` was built from, or undefined (not ours). */
function sourceOf(url: string): string | undefined {
  if (!url.startsWith("file://")) return undefined;
  const path = relative(REPO, fileURLToPath(url));
  for (const root of [ENGINE, APP]) {
    const built = path.match(new RegExp(`^${root}/dist/(.+)\\.js$`));
    if (built) return `${root}/src/${built[1]}.ts`;
  }
  return undefined;
}

/** The files the README's road table names, as repository paths, in its order. */
function readmeRoad(): string[] {
  const text = readFileSync(README, "utf8");
  const start = text.indexOf(`### One \`GET ${basePath}${list.op.path}\`, file by file`);
  expect(start, "the README's road section").toBeGreaterThan(-1);
  const table = text
    .slice(start)
    .split("\n")
    .filter((line) => /^\| \d+ \|/.test(line));
  const files: string[] = [];
  for (const row of table) {
    const cell = row.split("|")[2] as string;
    for (const [, name] of cell.matchAll(/`([^`]+\.ts)`/g)) {
      const path = name?.startsWith("apps/") ? name : `${ENGINE}/src/${name}`;
      if (!files.includes(path)) files.push(path);
    }
  }
  return files;
}

/** Sends `message` to the probe in `server` and resolves with its answer. */
function ask<T>(server: ServerProcess, message: "reset" | "take"): Promise<T> {
  return new Promise((resolve) => {
    server.child.once("message", (answer) => resolve(answer as T));
    server.child.send(message);
  });
}

const temp = tempDir();
let server: ServerProcess | undefined;

beforeAll(async () => {
  const database = join(temp.dir, "road.db");
  const key = await createKeyIn(database);
  server = await spawnServer(
    {
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      METRICS_PORT: String(await freePort()),
      DATABASE_URL: `file:${database}`,
    },
    { nodeArgs: ["--import", PROBE], ipc: true },
  );
  headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  // More pets than a page, so the page has a next link (the cursor is written): the contract's
  // example create on the list's path, sent once more than a page holds.
  const create = contract.operations.find((op) => op.method === "POST" && op.path === list.op.path);
  if (create === undefined) throw new Error(`the contract creates nothing at ${list.op.path}`);
  const example = exampleCall(create);
  for (let i = 0; i <= pageSize; i++) {
    const created = await fetch(`${server.url}${basePath}${example.path}`, {
      ...example.init,
      headers: { ...(example.init.headers as Record<string, string>), ...headers },
    });
    expect(created.status).toBe(201);
  }
});
let headers: Record<string, string>;

afterAll(async () => {
  await kill(server, "SIGTERM");
  temp.remove();
});

describe("one GET of the paged list", () => {
  it("passes through the files the engine README lists, and no others", async () => {
    const running = server as ServerProcess;
    const url = `${running.url}${basePath}${list.op.path}?${list.pageSize}=${pageSize}`;
    // Warm: the statements prepared and the key in the cache, as on every later request.
    for (let i = 0; i < 3; i++) expect((await fetch(url, { headers })).status).toBe(200);
    await ask(running, "reset");
    const response = await fetch(url, { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get("link")).toContain("cursor=");
    expect(await response.json()).toHaveLength(pageSize);
    // The access line and the metrics count are written when the response closes.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { called } = await ask<{ called: string[] }>(running, "take");
    const crossed = new Set(called.flatMap((url) => sourceOf(url) ?? []));
    const listed = readmeRoad();
    expect([...crossed].sort()).toEqual([...listed].sort());
    expect(listed.length).toBeLessThanOrEqual(MOST_FILES);
  });
});
