// `pnpm api-version` on a scratch copy of the repository's version-bearing files (the spec, the
// released copies, api-types' package.json, .changeset/): what it writes for each kind of bump,
// and that it refuses a new base path without a major. Runs the built CLI with --no-generate.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";

const cli = new URL("../dist/api-version-cli.js", import.meta.url).pathname;
const repo = new URL("../../..", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "api-version-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A scratch root with the real spec, released copies and api-types package at `published`. */
function checkout(name: string, published: string) {
  const root = join(scratch, name);
  cpSync(join(repo, "openapi/openapi.yaml"), join(root, "openapi/openapi.yaml"));
  cpSync(join(repo, "openapi/released"), join(root, "openapi/released"), { recursive: true });
  mkdirSync(join(root, "packages/api-types"), { recursive: true });
  mkdirSync(join(root, ".changeset"));
  const pkg = JSON.parse(readFileSync(join(repo, "packages/api-types/package.json"), "utf8"));
  writeFileSync(
    join(root, "packages/api-types/package.json"),
    JSON.stringify({ ...pkg, version: published }),
  );
  const spec = join(root, "openapi/openapi.yaml");
  const changeset = join(root, ".changeset/contract-version.md");
  return {
    root,
    version: () => parse(readFileSync(spec, "utf8")).info.version as string,
    spec: () => readFileSync(spec, "utf8"),
    changeset: () => readFileSync(changeset, "utf8"),
    edit: (from: RegExp, to: string) =>
      writeFileSync(spec, readFileSync(spec, "utf8").replace(from, to)),
    run: (...args: string[]) =>
      new Promise<{ code: number; output: string }>((resolve) => {
        execFile(
          process.execPath,
          [cli, ...args, "--root", root, "--no-generate"],
          (error, stdout, stderr) => {
            resolve({
              code: typeof error?.code === "number" ? error.code : 0,
              output: stdout + stderr,
            });
          },
        );
      }),
  };
}

const releaseLines = (kind: string) => [
  `"@animal-store/api-types": ${kind}`,
  `"@animal-store/client": ${kind}`,
];

describe("pnpm api-version", () => {
  it("minor: info.version one minor after the published api-types, only that line changed, a minor changeset", async () => {
    const repoCopy = checkout("minor", "1.0.0");
    const before = repoCopy.spec();
    const run = await repoCopy.run("minor", "--message", "Adds listCategories.");
    expect(run.code, run.output).toBe(0);
    expect(repoCopy.version()).toBe("1.1.0");
    const changed = before.split("\n").filter((line, i) => line !== repoCopy.spec().split("\n")[i]);
    expect(changed).toEqual(["  version: 1.0.0"]);
    for (const line of releaseLines("minor")) expect(repoCopy.changeset()).toContain(line);
    expect(repoCopy.changeset()).toContain("Contract 1.1.0");
    expect(repoCopy.changeset()).toContain("Adds listCategories.");
  });

  it("counts from the published version: a pending minor stays, a major replaces it", async () => {
    const repoCopy = checkout("pending", "1.0.0");
    expect((await repoCopy.run("minor")).code).toBe(0);
    expect((await repoCopy.run("patch")).code).toBe(0);
    expect(repoCopy.version()).toBe("1.1.0");
    for (const line of releaseLines("minor")) expect(repoCopy.changeset()).toContain(line);
    expect((await repoCopy.run("major")).code).toBe(0);
    expect(repoCopy.version()).toBe("2.0.0");
    for (const line of releaseLines("major")) expect(repoCopy.changeset()).toContain(line);
  });

  it("refuses a new base path without a major, and takes it with one", async () => {
    const repoCopy = checkout("v2", "1.0.0");
    repoCopy.edit(/\/v1\n/g, "/v2\n");
    const minor = await repoCopy.run("minor");
    expect(minor.code).toBe(1);
    expect(minor.output).toContain("the base path changed from /v1 (released 1.0.0) to /v2");
    expect(repoCopy.version()).toBe("1.0.0");
    expect((await repoCopy.run("major")).code).toBe(0);
    expect(repoCopy.version()).toBe("2.0.0");
  });

  it("refuses an unknown kind, and a spec older than what was published", async () => {
    const repoCopy = checkout("refusals", "1.2.0");
    expect((await repoCopy.run("huge")).output).toContain("usage: pnpm api-version");
    const older = await repoCopy.run("patch");
    expect(older.code).toBe(1);
    expect(older.output).toContain("older than the published @animal-store/api-types 1.2.0");
  });
});
