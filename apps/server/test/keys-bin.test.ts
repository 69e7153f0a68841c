// `pnpm keys` is this package's bin (no root script, so pnpm prints no banner): its stdout must be
// the key alone, so `KEY=$(pnpm keys create ...)` works in scripts.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const bin = new URL("../bin/keys.mjs", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "animal-store-keys-bin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the keys bin", () => {
  it("prints the new key alone on stdout, and list shows it by name", async () => {
    const env = { ...process.env, DATABASE_URL: `file:${join(dir, "keys.db")}`, NO_COLOR: "1" };
    const created = await run(
      process.execPath,
      [bin, "create", "--plan", "pro", "--name", "web", "--create-database"],
      { env },
    );
    expect(created.stdout).toMatch(/^ask_[A-Za-z0-9_-]{20,}\n$/);
    // Quiet: the database it acted on and what it did, no build banner.
    expect(created.stderr).toMatch(/^keys: database SQLite file:.*keys\.db\ncreated key_/);
    const listed = await run(process.execPath, [bin, "list"], { env });
    expect(listed.stdout).toMatch(/\bweb\s+pro\b/);
    expect(listed.stdout).not.toContain(created.stdout.trim());
  }, 60_000);
});
