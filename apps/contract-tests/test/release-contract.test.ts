// The release step of the breaking-change gate: recording a new contract version in a released
// directory (a temporary one here, never openapi/released/ itself). Runs the built CLI.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundledContractPath } from "../src/contract-paths.js";

// biome-ignore lint/suspicious/noExplicitAny: fixtures edit the spec as plain JSON.
type Json = any;

const cli = new URL("../dist/release-contract-cli.js", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "release-contract-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A released dir holding the current bundle as 1.0.0, and a candidate contract with `edit`. */
function setup(name: string, edit: (spec: Json) => void) {
  const released = join(scratch, name);
  mkdirSync(released);
  const spec = JSON.parse(readFileSync(bundledContractPath(), "utf8"));
  spec.info.version = "1.0.0";
  writeFileSync(join(released, "openapi-1.0.0.json"), JSON.stringify(spec, null, 2));
  edit(spec);
  const contract = join(scratch, `${name}-candidate.json`);
  writeFileSync(contract, JSON.stringify(spec, null, 2));
  return { released, contract };
}

/** Runs the CLI; resolves with its exit code and output. */
function release(
  contract: string,
  released: string,
  ...extra: string[]
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const args = [cli, "--contract", contract, "--released-dir", released, ...extra];
    execFile(process.execPath, args, { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: typeof error?.code === "number" ? error.code : 0, output: stdout + stderr });
    });
  });
}

describe("release-contract", () => {
  it.concurrent("records a newer, non-breaking version as openapi-<version>.json", async () => {
    const { released, contract } = setup("minor", (s) => {
      s.info.version = "1.1.0";
      s.components.schemas.Pet.properties.nickname = { type: "string" };
    });
    const changelog = join(released, "CHANGELOG.md");
    const run = await release(contract, released, "--changelog", changelog);
    expect(run.code, run.output).toBe(0);
    expect(readFileSync(join(released, "openapi-1.1.0.json"), "utf8")).toBe(
      readFileSync(contract, "utf8"),
    );
    // The release writes its API changelog entry under its version.
    const text = readFileSync(changelog, "utf8");
    expect(text).toContain("## 1.1.0");
    expect(text).toContain("### API 1.1.0 (compared with the released 1.0.0)");
    expect(text).toMatch(/- \*\*changed\*\* `\w+` \(`GET [^`]+`\), not breaking/);
    const again = await release(contract, released);
    expect(again.code).toBe(0);
    expect(again.output).toContain("already released");
  });

  it.concurrent("refuses a breaking change without a major version", async () => {
    const { released, contract } = setup("breaking", (s) => {
      s.info.version = "1.1.0";
      delete s.paths["/pets"].post;
    });
    const run = await release(contract, released);
    expect(run.code).toBe(1);
    expect(run.output).toContain("BREAKING operation-removed");
    expect(existsSync(join(released, "openapi-1.1.0.json"))).toBe(false);
  });

  it.concurrent("refuses a version that is not newer, or a changed contract under a released version", async () => {
    const older = setup("older", (s) => {
      s.info.version = "0.9.0";
    });
    const run = await release(older.contract, older.released);
    expect(run.code).toBe(1);
    expect(run.output).toContain("not newer than the released 1.0.0");
    const same = setup("same", (s) => {
      s.info.description = "changed without a version bump";
    });
    const changed = await release(same.contract, same.released);
    expect(changed.code).toBe(1);
    expect(changed.output).toContain("bump info.version");
  });

  it.concurrent("--if-unreleased records a newer version, and does nothing for a released one", async () => {
    const same = setup("unreleased-same", (s) => {
      s.info.description = "changed without a version bump";
    });
    const nothing = await release(same.contract, same.released, "--if-unreleased");
    expect(nothing.code, nothing.output).toBe(0);
    expect(nothing.output).toContain("nothing to record");
    const newer = setup("unreleased-newer", (s) => {
      s.info.version = "2.0.0";
      delete s.paths["/pets"].post;
    });
    const recorded = await release(newer.contract, newer.released, "--if-unreleased");
    expect(recorded.code, recorded.output).toBe(0);
    expect(existsSync(join(newer.released, "openapi-2.0.0.json"))).toBe(true);
  });
});
