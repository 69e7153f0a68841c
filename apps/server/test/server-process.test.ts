/**
 * The built server as `pnpm start` runs it: a development key on the first start of an empty
 * development database (and never again), the README's curl flow with it, a bad environment
 * stopping start-up with the variable named, and SIGTERM finishing in-flight requests, exit 0.
 */

import { request } from "node:http";
import { join } from "node:path";
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite.js";
import { createKeyIn, kill, type ServerProcess, spawnServer } from "./support/server-process.js";
import { tempDir } from "./support/test-app.js";

const temp = tempDir();
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => kill(server)));
  temp.remove();
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await spawnServer(env);
  running.push(server);
  return server;
}

describe("first start", { timeout: 20_000 }, () => {
  it("prints one development key, which lists, creates and fetches pets", async () => {
    const env = { DATABASE_URL: `file:${join(temp.dir, "dev.db")}` };
    const first = await start(env);
    const key = (await first.waitForStderr(/\n {2}(ask_\S+)\n/))[1];
    expect(key).toMatch(/^ask_/);
    expect(first.stderr()).toContain(
      `curl -H "Authorization: Bearer ${key}" ${first.url}${basePath}/pets`,
    );
    // The key is never in the logs.
    expect(JSON.stringify(first.stdoutLines())).not.toContain(key);

    const auth = { authorization: `Bearer ${key}` };
    expect(await (await fetch(`${first.url}${basePath}/pets`, { headers: auth })).json()).toEqual(
      [],
    );
    const created = await fetch(`${first.url}${basePath}/pets`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ name: "Rex", categoryId: 1, status: "available" }),
    });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };
    expect(
      await (await fetch(`${first.url}${basePath}/pets/${pet.id}`, { headers: auth })).json(),
    ).toEqual(pet);
    first.child.kill("SIGTERM");
    expect((await first.exited).code).toBe(0);

    // The key is created before "listening", so the database is final once start resolves.
    const second = await start(env);
    expect((await fetch(`${second.url}${basePath}/pets`, { headers: auth })).status).toBe(200);
    const store = await openSqliteStore(join(temp.dir, "dev.db"));
    const names = (await store.listApiKeys()).map((record) => record.name);
    await store.close();
    expect(names).toEqual(["development"]);
  });

  it("creates no key outside development", async () => {
    const server = await start({
      DATABASE_URL: `file:${join(temp.dir, "prod.db")}`,
      NODE_ENV: "production",
    });
    expect(server.stderr()).toBe("");
    const store = await openSqliteStore(join(temp.dir, "prod.db"));
    const count = await store.countApiKeys();
    await store.close();
    expect(count).toBe(0);
  });
});

describe("bad configuration", { timeout: 20_000 }, () => {
  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ REDIS_URL: "http://redis" }, "REDIS_URL"],
  ])("%j stops start-up naming %s", async (env, variable) => {
    await expect(
      start({ DATABASE_URL: `file:${join(temp.dir, "bad.db")}`, ...env }),
    ).rejects.toThrow(
      new RegExp(`exited \\(1\\) before listening: animal-store: bad configuration: ${variable}`),
    );
  });

  it("a port in use stops start-up with a message naming the port and the process holding it", async () => {
    const taken = await start({ DATABASE_URL: `file:${join(temp.dir, "port.db")}` });
    const port = new URL(taken.url).port;
    await expect(
      start({ DATABASE_URL: `file:${join(temp.dir, "port2.db")}`, PORT: port }),
    ).rejects.toThrow(
      new RegExp(
        `exited \\(1\\) before listening: animal-store: cannot start: port ${port} on 127\\.0\\.0\\.1 is taken \\(by pid ${taken.child.pid}: .*dist/main\\.js\\)`,
      ),
    );
  });
});

/**
 * POSTs a pet with the headers and part of the body sent, so the request is in flight until
 * `finish()` sends the rest; `answer` resolves with the status and body.
 */
function inFlightCreate(server: ServerProcess, key: string, pet: Record<string, unknown>) {
  const { hostname, port } = new URL(server.url);
  const body = JSON.stringify(pet);
  let finish = () => {};
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method: "POST",
        path: `${basePath}/pets`,
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += String(chunk);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.write(body.slice(0, 10));
    finish = () => req.end(body.slice(10));
  });
  return { answer, finish: () => finish() };
}

describe("SIGTERM", { timeout: 20_000 }, () => {
  it("stops accepting, finishes the in-flight request, closes the store and exits 0", async () => {
    const file = join(temp.dir, "term.db");
    const env = { DATABASE_URL: `file:${file}` };
    const key = await createKeyIn(file);
    const server = await start(env);
    // Headers and half the body now, the rest after SIGTERM: the request is in flight throughout.
    const create = inFlightCreate(server, key, { name: "Slowpoke", categoryId: 7 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    create.finish();
    const answered = await create.answer;
    expect(answered.status).toBe(201);
    expect(JSON.parse(answered.body)).toMatchObject({ name: "Slowpoke", categoryId: 7 });
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const messages = server.stdoutLines().map((line) => line.msg);
    expect(messages).toEqual(expect.arrayContaining(["shutting down", "closed"]));
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();

    const after = await start(env);
    const list = await fetch(`${after.url}${basePath}/pets`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(await list.json()).toEqual([JSON.parse(answered.body)]);
  });
});

describe("Ctrl-C", { timeout: 60_000 }, () => {
  // The terminal signals the whole process group and pnpm forwards the signal too: the server
  // gets SIGINT twice, and the second must not kill it while it drains (a request is in flight,
  // so it is still draining when the second arrives).
  it.each(["SIGINT", "SIGHUP"] as const)(
    "%s again while draining is ignored: the request is answered, exit 0",
    async (signal) => {
      const file = join(temp.dir, `${signal}.db`);
      const key = await createKeyIn(file);
      const server = await start({ DATABASE_URL: `file:${file}` });
      const create = inFlightCreate(server, key, { name: "Twice", categoryId: 7 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      server.child.kill(signal);
      for (let waited = 0; waited < 10_000; waited += 20) {
        if (server.stdoutLines().some((line) => line.msg === "shutting down")) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      server.child.kill(signal);
      await new Promise((resolve) => setTimeout(resolve, 200));
      create.finish();
      expect((await create.answer).status).toBe(201);
      expect(await server.exited).toEqual({ code: 0, signal: null });
      const messages = server.stdoutLines().map((line) => line.msg);
      expect(messages.filter((msg) => msg === "shutting down")).toHaveLength(1);
    },
  );
});
