/**
 * The keys CLI on the server's own configuration: `create` prints the key alone on stdout (so
 * `KEY=$(pnpm -s keys create ...)` works), `list` shows keys without secrets, `revoke` stops one.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { hashApiKey } from "@animal-store/openapi-engine";
import { customPlan, plans, roomiestPlan } from "@animal-store/test-support/spec-values";
import { afterAll, describe, expect, it } from "vitest";
import { runKeysCommand } from "../src/keys-cli/keys-command.js";
import { openSqliteStore } from "../src/store/sqlite.js";
import { runKeys } from "./support/server-process.js";
import { expectError, startTestApp, tempDir } from "./support/test-app.js";

// Plans as the spec names them: a plan with fixed limits, and one whose limits are set per key.
const plan = roomiestPlan.name;
const custom = customPlan?.name as string;
const temp = tempDir();
const env = { DATABASE_URL: `file:${join(temp.dir, "keys.db")}` };
afterAll(() => temp.remove());

/** The command in-process, with its output captured. */
async function keys(args: string[], environment: Record<string, string>) {
  let stdout = "";
  let stderr = "";
  const code = await runKeysCommand(args, {
    env: environment,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

describe("keys CLI", { timeout: 20_000 }, () => {
  it("as a process: prints the key alone on stdout, and the key works", async () => {
    const created = await runKeys(
      ["create", "--plan", plan, "--name", "web", "--create-database"],
      env,
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^ask_[A-Za-z0-9_-]{32}\n$/);
    expect(created.stderr).toMatch(new RegExp(`\\ncreated key_[0-9a-f]{16} \\(${plan}, "web"\\)`));
    const key = created.stdout.trim();

    const app = await startTestApp({ store: await openSqliteStore(join(temp.dir, "keys.db")) });
    try {
      const response = await app.api("/pets", { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      expect(await app.store.findApiKeyByHash(hashApiKey(key))).toMatchObject({
        plan,
        name: "web",
      });
    } finally {
      await app.close();
    }
    const usage = await runKeys(["create", "--plan", "gold", "--name", "x"], env);
    expect([usage.code, usage.stdout]).toEqual([2, ""]);
  });

  it("lists keys with plan, limits and times, never the key or its hash", async () => {
    const created = await keys(
      [
        "create",
        "--plan",
        custom,
        "--name",
        "big corp",
        "--per-minute",
        "5000",
        "--per-day",
        "2000000",
      ],
      env,
    );
    const key = created.stdout.trim();
    const listed = await keys(["list"], env);
    expect(listed.code).toBe(0);
    const [header, ...rows] = listed.stdout.trim().split("\n");
    expect(header).toMatch(/^ID\s+NAME\s+PLAN\s+LIMITS\s+CREATED\s+REVOKED$/);
    expect(
      rows.some((row) => new RegExp(`big corp\\s+${custom}\\s+5000/min 2000000/day`).test(row)),
    ).toBe(true);
    expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).not.toContain(hashApiKey(key));

    const json = JSON.parse((await keys(["list", "--json"], env)).stdout) as Array<
      Record<string, unknown>
    >;
    expect(json.find((record) => record.name === "big corp")).toMatchObject({
      plan: custom,
      perMinute: 5000,
      perDay: 2000000,
      revokedAt: null,
    });
    expect(JSON.stringify(json)).not.toContain(hashApiKey(key));
  });

  it("revokes a key by id, which then gets 401", async () => {
    const key = (await keys(["create", "--plan", plan, "--name", "gone soon"], env)).stdout.trim();
    const json = JSON.parse((await keys(["list", "--json"], env)).stdout) as Array<{
      id: string;
      name: string;
    }>;
    const id = json.find((record) => record.name === "gone soon")?.id ?? "";
    const revoked = await keys(["revoke", id], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^revoked ${id} at \\d{4}-`));
    expect((await keys(["list"], env)).stdout).toMatch(
      new RegExp(`${id}.*gone soon.*\\d{4}-.*\\d{4}-`),
    );

    const app = await startTestApp({ store: await openSqliteStore(join(temp.dir, "keys.db")) });
    try {
      const response = await app.api("/pets", { headers: { authorization: `Bearer ${key}` } });
      await expectError(response, 401, "invalid_api_key");
    } finally {
      await app.close();
    }
  });

  it.each([
    [
      ["create", "--plan", "gold", "--name", "x"],
      2,
      new RegExp(`--plan must be one of ${plans.map((p) => p.name).join(", ")}`),
    ],
    [["create", "--plan", plan], 2, /--name is required/],
    [
      ["create", "--plan", plan, "--name", "x", "--per-minute", "lots"],
      2,
      /--per-minute must be a whole number/,
    ],
    [["create", "--plan", plan, "--name", "x", "--colour", "red"], 2, /Unknown option '--colour'/],
    [["create", "--plan", custom, "--name", "x"], 1, new RegExp(`${custom} key needs its own`)],
    [["revoke"], 2, /exactly one key id/],
    [["revoke", "key_nope"], 1, /no key with id key_nope/],
    [["rotate"], 2, /^keys: unknown command "rotate" \(keys --help for usage\)\n$/],
    [["delete", "key_1"], 2, /^keys: unknown command "delete" \(keys --help for usage\)\n$/],
    [[], 2, /^keys: a command is needed \(keys --help for usage\)\n$/],
  ])("%j exits %i with a clear message and nothing on stdout", async (args, code, message) => {
    const result = await keys(args, env);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });

  it("names a bad environment variable", async () => {
    const result = await keys(["list"], { DATABASE_URL: "redis://nope" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("DATABASE_URL");
  });

  it.each([["-h"], ["--help"], ["help"]])(
    "%j prints the usage on stdout and exits 0",
    async (flag) => {
      const result = await keys([flag], env);
      expect(result).toEqual({
        code: 0,
        stdout: expect.stringMatching(/^usage:\n {2}keys create/),
        stderr: "",
      });
    },
  );

  it("writes the article its help's plan names need ('an enterprise key', 'a pro key')", async () => {
    const result = await keys(["--help"], env);
    expect(result.stdout.match(/\ba [aeiou]\w* key\b/gi) ?? []).toEqual([]);
    expect(result.stdout.match(/\ban [^aeiou\s]\w* key\b/gi) ?? []).toEqual([]);
  });

  it("names the database it acts on, on stderr, before acting", async () => {
    const listed = await keys(["list"], env);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toBe(`keys: database SQLite file:${join(temp.dir, "keys.db")}\n`);
    const postgres = await keys(["list"], {
      DATABASE_URL: "postgres://alice:s3cret@127.0.0.1:1/nowhere",
      DATABASE_SCHEMA: "tenant_a",
    });
    expect(postgres.stderr).toMatch(
      /^keys: database PostgreSQL postgres:\/\/alice:\*\*\*@127\.0\.0\.1:1\/nowhere \(schema tenant_a\)\n/,
    );
    expect(postgres.stderr).not.toContain("s3cret");
  });

  it("refuses a file: database that does not exist, unless asked to create it", async () => {
    const typo = { DATABASE_URL: `file:${join(temp.dir, "kyes.db")}` };
    const refused = await keys(["create", "--plan", "pro", "--name", "x"], typo);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(`keys: no database at ${join(temp.dir, "kyes.db")}`);
    expect(refused.stderr).toContain("--create-database");
    expect(existsSync(join(temp.dir, "kyes.db"))).toBe(false);
    const created = await keys(
      ["create", "--create-database", "--plan", "pro", "--name", "x"],
      typo,
    );
    expect(created.code).toBe(0);
    expect(existsSync(join(temp.dir, "kyes.db"))).toBe(true);
  });
});
