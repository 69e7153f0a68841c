// The published form, as a user gets it: `pnpm client:pack` (scripts/pack.mjs) writes ONE tarball;
// plain `npm install --offline` of it into an empty folder gives a typed client (the contract's
// types inlined, openapi-fetch bundled: no second package, no registry); a script type-checks
// there with `tsc --strict` under moduleResolution node16, nodenext and bundler (the workspace's
// TypeScript, by path), and, compiled, runs against the real server. Needs `pnpm build` first
// (turbo does it).
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type ScratchServer, startScratchServer } from "@animal-store/openapi-engine/testing";
import { animalStore, type Store } from "@animal-store/server";
import { publint } from "publint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, without declarations
import { packClient } from "../scripts/pack.mjs";

const run = promisify(execFile);
const clientDir = fileURLToPath(new URL("..", import.meta.url));
const tsc = join(clientDir, "node_modules/typescript/bin/tsc");
const scratch = mkdtempSync(join(tmpdir(), "animal-store-client-pack-"));
const installed = join(scratch, "node_modules/@animal-store/client");
let tarball = "";
let server: ScratchServer<Store>;

const USAGE_TS = `import { createAnimalStoreClient, unwrap, type RateLimitInfo } from "@animal-store/client";
declare const process: { argv: string[]; stdout: { write(text: string): void } };

const client = createAnimalStoreClient({ baseUrl: process.argv[2] ?? "", apiKey: process.argv[3] ?? "" });
const page = unwrap(await client.GET("/pets", { params: { query: { limit: 1 } } }));
const names: string[] = page.map((item) => item.name);
const limits: RateLimitInfo | undefined = client.rateLimit;
if (process.argv[4] === "never") {
  // @ts-expect-error: "lost" is not a status the contract declares, so the installed types are real
  await client.GET("/pets", { params: { query: { status: "lost" } } });
}
process.stdout.write(JSON.stringify({ names, remaining: limits?.remaining }));
`;

/** A strict tsconfig for one moduleResolution (`module` as TypeScript requires beside it). */
const tsconfig = (resolution: "node16" | "nodenext" | "bundler", emit = false) => ({
  compilerOptions: {
    target: "ES2022",
    module: resolution === "bundler" ? "ESNext" : resolution,
    moduleResolution: resolution,
    lib: ["ES2023", "DOM"],
    strict: true,
    skipLibCheck: false,
    types: [],
    ...(emit ? { outDir: "out" } : { noEmit: true }),
  },
  files: ["usage.ts"],
});

beforeAll(async () => {
  expect(existsSync(join(clientDir, "dist/index.js")), "run `pnpm build` first").toBe(true);
  server = await startScratchServer(animalStore, { name: "client-pack", key: { plan: "pro" } });
  tarball = packClient(scratch);
  writeFileSync(
    join(scratch, "package.json"),
    '{ "name": "scratch", "private": true, "type": "module" }',
  );
  writeFileSync(join(scratch, "usage.ts"), USAGE_TS);
  for (const resolution of ["node16", "nodenext", "bundler"] as const) {
    writeFileSync(
      join(scratch, `tsconfig.${resolution}.json`),
      JSON.stringify(tsconfig(resolution)),
    );
  }
  writeFileSync(join(scratch, "tsconfig.emit.json"), JSON.stringify(tsconfig("nodenext", true)));
  // The README's install example, as written (it reads process.env: the workspace's @types/node).
  const readme = readFileSync(join(clientDir, "README.md"), "utf8");
  const example = /## Install[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  writeFileSync(join(scratch, "readme.ts"), example);
  const readmeConfig = tsconfig("nodenext");
  writeFileSync(
    join(scratch, "tsconfig.readme.json"),
    JSON.stringify({
      compilerOptions: {
        ...readmeConfig.compilerOptions,
        types: ["node"],
        typeRoots: [join(clientDir, "node_modules/@types")],
      },
      files: ["readme.ts"],
    }),
  );
  // --offline: everything the client needs is in its one tarball.
  await run(
    "npm",
    ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball],
    { cwd: scratch },
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the packed client, one tarball", () => {
  it("is one tarball that depends on no other @animal-store package", () => {
    expect(tarball).toMatch(/animal-store-client-\d+\.\d+\.\d+\.tgz$/);
    const pkg = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    // Everything it imports is vendored: nothing left for npm to fetch.
    expect({ ...pkg.dependencies, ...pkg.peerDependencies }).toEqual({});
    expect(pkg.type).toBe("module");
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.publishConfig).toMatchObject({ access: "public", provenance: true });
    expect(existsSync(join(installed, "dist/index.d.ts"))).toBe(true);
    expect(existsSync(join(installed, "test"))).toBe(false);
    expect(existsSync(join(scratch, "node_modules/@animal-store/api-types"))).toBe(false);
  });

  for (const resolution of ["node16", "nodenext", "bundler"] as const) {
    it(`type-checks a script with tsc --strict under moduleResolution ${resolution}`, async () => {
      const result = await run(process.execPath, [tsc, "-p", `tsconfig.${resolution}.json`], {
        cwd: scratch,
      }).then(
        () => "ok",
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect(result).toBe("ok");
    }, 60_000);
  }

  it("type-checks the README's install example (tsc --strict, nodenext)", async () => {
    expect(readFileSync(join(scratch, "readme.ts"), "utf8")).toContain("createAnimalStoreClient");
    const result = await run(process.execPath, [tsc, "-p", "tsconfig.readme.json"], {
      cwd: scratch,
    }).then(
      () => "ok",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe("ok");
  }, 60_000);

  it("runs, compiled, against the real server", async () => {
    await run(process.execPath, [tsc, "-p", "tsconfig.emit.json"], { cwd: scratch });
    const { stdout } = await run(
      process.execPath,
      ["out/usage.js", server.apiUrl, server.key, "never"],
      { cwd: scratch },
    );
    const result = JSON.parse(stdout);
    expect(Array.isArray(result.names)).toBe(true);
    expect(result.remaining).toEqual(expect.any(Number));
  }, 60_000);

  it("publishes (pnpm publish --dry-run) the staged files: built code, declarations, README, no tests", async () => {
    const { stdout } = await run("pnpm", ["publish", "--dry-run", "--no-git-checks", "--json"], {
      cwd: clientDir,
    });
    const version = JSON.parse(readFileSync(join(clientDir, "package.json"), "utf8")).version;
    const report = JSON.parse(stdout)["@animal-store/client"] ?? JSON.parse(stdout);
    expect(report.id).toBe(`@animal-store/client@${version}`);
    const files: string[] = report.files.map((f: { path: string }) => f.path);
    expect(files).toEqual(
      expect.arrayContaining(["package.json", "README.md", "dist/index.js", "dist/index.d.ts"]),
    );
    expect(files).toEqual(expect.arrayContaining(["dist/vendor/openapi-fetch/LICENSE"]));
    expect(files.filter((f) => /(^|\/)test\/|\.test\./.test(f))).toEqual([]);
  }, 60_000);

  it("passes publint (strict) on what was installed from the tarball", async () => {
    const { messages } = await publint({ pkgDir: installed, strict: true, pack: false });
    // One suggestion is expected: publint would have the browser swap as a `browser` condition
    // in `exports` or `imports`. The `browser` field swaps one internal module (the plain call
    // path) in browser builds; a condition could do that only through a `#` import, which this
    // workspace's own tests would then resolve to the built file instead of the source.
    const expected = new Set(["USE_EXPORTS_OR_IMPORTS_BROWSER"]);
    expect(messages.filter((message) => !expected.has(message.code))).toEqual([]);
  }, 30_000);
});
