// `pnpm api-version` on a scratch copy of the repository's version-bearing files (the spec, the
// released copies, api-types' package.json, .changeset/): what it writes for each kind of bump,
// and that it refuses a new base path without a major. Runs the built CLI with --no-generate.
import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { basePathOf, readSpec } from "@animal-store/openapi";
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bundledContractPath } from "../src/contract-paths.js";
import { latestReleasedContract } from "../src/contract-version.js";

const cli = new URL("../dist/api-version-cli.js", import.meta.url).pathname;
const repo = new URL("../../..", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "api-version-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A scratch root with the real spec, released copies and api-types package at `published`. */
function checkout(name: string, published: string) {
  const root = join(scratch, name);
  cpSync(join(repo, "openapi/openapi.yaml"), join(root, "openapi/openapi.yaml"));
  cpSync(join(repo, "openapi/released"), join(root, "openapi/released"), { recursive: true });
  // The copy starts as published: a spec version with no released copy yet (a bump not released,
  // such as the spec-edit drill's /v2 at 2.0.0) gets its bundle recorded, as the release would.
  const own = join(root, `openapi/released/openapi-${published}.json`);
  if (published === current && !existsSync(own)) cpSync(bundledContractPath(), own);
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

// The repository's own numbers, read rather than restated, so a bump or a new base path on main
// needs no edit here: the spec's version (what the scratch copies start as published), the next
// minor and major, and the base path.
const current = String(
  (parse(readFileSync(join(repo, "openapi/openapi.yaml"), "utf8")) as { info: { version: string } })
    .info.version,
);
const [major = 0, minor = 0] = current.split(".").map(Number);
const nextMinor = `${major}.${minor + 1}.0`;
const nextMajor = `${major + 1}.0.0`;
const otherVersion = basePath.replace(/\d+$/, (n) => String(Number(n) + 1));

const releaseLines = (kind: string) => [
  `"@animal-store/api-types": ${kind}`,
  `"@animal-store/client": ${kind}`,
];

describe("pnpm api-version", () => {
  it("minor: info.version one minor after the published api-types, only that line changed, a minor changeset", async () => {
    const repoCopy = checkout("minor", current);
    const before = repoCopy.spec();
    const run = await repoCopy.run("minor", "--message", "Adds listCategories.");
    expect(run.code, run.output).toBe(0);
    expect(repoCopy.version()).toBe(nextMinor);
    const changed = before.split("\n").filter((line, i) => line !== repoCopy.spec().split("\n")[i]);
    expect(changed).toEqual([`  version: ${current}`]);
    for (const line of releaseLines("minor")) expect(repoCopy.changeset()).toContain(line);
    expect(repoCopy.changeset()).toContain(`Contract ${nextMinor}`);
    expect(repoCopy.changeset()).toContain("Adds listCategories.");
  });

  it("counts from the published version: a pending minor stays, a major replaces it", async () => {
    const repoCopy = checkout("pending", current);
    expect((await repoCopy.run("minor")).code).toBe(0);
    expect((await repoCopy.run("patch")).code).toBe(0);
    expect(repoCopy.version()).toBe(nextMinor);
    for (const line of releaseLines("minor")) expect(repoCopy.changeset()).toContain(line);
    expect((await repoCopy.run("major")).code).toBe(0);
    expect(repoCopy.version()).toBe(nextMajor);
    for (const line of releaseLines("major")) expect(repoCopy.changeset()).toContain(line);
  });

  it("refuses a new base path without a major, and takes it with one", async () => {
    const repoCopy = checkout("v2", current);
    repoCopy.edit(new RegExp(`${basePath}\n`, "g"), `${otherVersion}\n`);
    const released = latestReleasedContract(join(repoCopy.root, "openapi/released"));
    const minor = await repoCopy.run("minor");
    expect(minor.code).toBe(1);
    expect(minor.output).toContain(
      `the base path changed from ${basePathOf(readSpec(released.path).spec)} (released ${released.version}) to ${otherVersion}`,
    );
    expect(repoCopy.version()).toBe(current);
    expect((await repoCopy.run("major")).code).toBe(0);
    expect(repoCopy.version()).toBe(nextMajor);
  });

  it("refuses an unknown kind, and a spec older than what was published", async () => {
    const ahead = `${major}.${minor + 2}.0`;
    const repoCopy = checkout("refusals", ahead);
    expect((await repoCopy.run("huge")).output).toContain("usage: pnpm api-version");
    const older = await repoCopy.run("patch");
    expect(older.code).toBe(1);
    expect(older.output).toContain(`older than the published @animal-store/api-types ${ahead}`);
  });
});

describe("pnpm api-version with no bump", () => {
  it("shows the pending API changelog entry of the bundle against the newest released contract", async () => {
    const repoCopy = checkout("pending-entry", current);
    const bundled = join(repoCopy.root, "openapi/dist/openapi.json");
    const spec = JSON.parse(readFileSync(bundledContractPath(), "utf8"));
    spec.paths["/__changelog-fixture"] = {
      get: { operationId: "changelogFixture", responses: { "204": { description: "None." } } },
    };
    mkdirSync(join(repoCopy.root, "openapi/dist"), { recursive: true });
    writeFileSync(bundled, JSON.stringify(spec));
    const run = await repoCopy.run();
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("Pending API changelog entry");
    expect(run.output).toContain(
      "- **added** `changelogFixture` (`GET /__changelog-fixture`), not breaking",
    );
    expect(repoCopy.spec()).toBe(readFileSync(join(repo, "openapi/openapi.yaml"), "utf8"));
    expect(existsSync(join(repoCopy.root, ".changeset/contract-version.md"))).toBe(false);
  }, 60_000);
});
