// The drift gate (scripts/write-generated.mjs): building regenerates the working copy, so
// generate:check compares what the spec at HEAD produces with the file committed at HEAD, and is
// skipped, saying so, while the spec has uncommitted edits. Run in a scratch git repository.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const gate = new URL("../../../scripts/write-generated.mjs", import.meta.url).href;
const repo = mkdtempSync(join(tmpdir(), "animal-store-drift-"));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo });

/** Runs the gate on `generated.ts` with `fresh` as what the spec produces. */
function run(fresh: string, check: boolean) {
  const script = `import { writeOrCheckGenerated } from ${JSON.stringify(gate)};
await writeOrCheckGenerated(${JSON.stringify(join(repo, "generated.ts"))}, ${JSON.stringify(fresh)}, { check: ${check} });`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: repo,
    encoding: "utf8",
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

describe("generate:check", () => {
  mkdirSync(join(repo, "openapi"));
  writeFileSync(join(repo, "openapi/openapi.yaml"), "openapi: 3.1.0\n");
  writeFileSync(join(repo, "generated.ts"), "old\n");
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "spec and types");

  it("passes when the committed file is what the committed spec produces", () => {
    expect(run("old\n", true)).toMatchObject({
      code: 0,
      out: expect.stringContaining("(HEAD) matches"),
    });
  });

  it("fails on a commit whose generated file lags its spec, even after a build regenerated it", () => {
    expect(run("new\n", false).code).toBe(0);
    const failed = run("new\n", true);
    expect(failed.code).toBe(1);
    expect(failed.out).toContain("generated.ts (HEAD) is out of date with openapi/openapi.yaml");
  });

  it("is skipped, saying why, while the spec has uncommitted edits", () => {
    writeFileSync(join(repo, "openapi/openapi.yaml"), "openapi: 3.1.0\ninfo: {}\n");
    const skipped = run("newer\n", true);
    expect(skipped.code).toBe(0);
    expect(skipped.out).toContain(
      "generate:check skipped: openapi/openapi.yaml has uncommitted edits",
    );
  });

  it("leaves an unchanged file alone when generating (its mtime is what watchers see)", () => {
    const before = statSync(join(repo, "generated.ts")).mtimeMs;
    expect(run("new\n", false).out).toContain("is up to date");
    expect(statSync(join(repo, "generated.ts")).mtimeMs).toBe(before);
  });
});
