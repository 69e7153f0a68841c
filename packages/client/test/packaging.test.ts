// The published form: `pnpm pack` of the client (and of @animal-store/api-types, whose types its
// declarations import) installs into a scratch project with plain `npm install`, typechecks there,
// runs against a local HTTP server, and passes publint. Needs `pnpm build` first (turbo does it).
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { publint } from "publint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScriptedServer, startScriptedServer } from "./scripted-server.js";

const run = promisify(execFile);
const clientDir = fileURLToPath(new URL("..", import.meta.url));
const typesDir = fileURLToPath(new URL("../../api-types", import.meta.url));
const tsc = join(clientDir, "node_modules/typescript/bin/tsc");
const scratch = mkdtempSync(join(tmpdir(), "animal-store-client-pack-"));
let server: ScriptedServer;

/** Packs a workspace package into the scratch directory and returns the tarball's path. */
async function pack(dir: string): Promise<string> {
  const { stdout } = await run("pnpm", ["pack", "--pack-destination", scratch], { cwd: dir });
  const tarball = stdout.trim().split("\n").pop() ?? "";
  expect(tarball).toMatch(/\.tgz$/);
  return tarball;
}

const USAGE_TS = `import { createAnimalStoreClient, unwrap, type Pet, type RateLimitInfo } from "@animal-store/client";
const client = createAnimalStoreClient({ baseUrl: "http://127.0.0.1:8080/api", apiKey: "k" });
export async function firstAvailable(): Promise<Pet | undefined> {
  const pets: Pet[] = unwrap(await client.GET("/pets", { params: { query: { status: "available" } } }));
  const limits: RateLimitInfo | undefined = client.rateLimit;
  // @ts-expect-error: "lost" is not a PetStatus, so the installed types are real, not any
  await client.GET("/pets", { params: { query: { status: "lost" } } });
  return limits ? pets[0] : undefined;
}
`;
const USAGE_MJS = `import { createAnimalStoreClient, unwrap } from "@animal-store/client";
const client = createAnimalStoreClient({ baseUrl: process.argv[2], apiKey: "packed-key" });
const pets = unwrap(await client.GET("/pets", { params: { query: { limit: 1 } } }));
console.log(JSON.stringify({ pets, rateLimit: client.rateLimit }));
`;
const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2023", "DOM"],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: [],
  },
  include: ["usage.ts"],
};

beforeAll(async () => {
  expect(existsSync(join(clientDir, "dist/index.js")), "run `pnpm build` first").toBe(true);
  server = await startScriptedServer();
  const clientTarball = await pack(clientDir);
  const typesTarball = await pack(typesDir);
  writeFileSync(
    join(scratch, "package.json"),
    '{ "name": "scratch", "private": true, "type": "module" }',
  );
  writeFileSync(join(scratch, "usage.ts"), USAGE_TS);
  writeFileSync(join(scratch, "usage.mjs"), USAGE_MJS);
  writeFileSync(join(scratch, "tsconfig.json"), JSON.stringify(TSCONFIG));
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--ignore-scripts", clientTarball, typesTarball],
    { cwd: scratch },
  );
}, 90_000);

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the packed client", () => {
  it("declares a plain version of api-types, not a workspace link", () => {
    const installed = JSON.parse(
      readFileSync(join(scratch, "node_modules/@animal-store/client/package.json"), "utf8"),
    );
    expect(installed.dependencies["@animal-store/api-types"]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed.sideEffects).toBe(false);
    expect(existsSync(join(scratch, "node_modules/@animal-store/client/dist/index.d.ts"))).toBe(
      true,
    );
    expect(existsSync(join(scratch, "node_modules/@animal-store/client/test"))).toBe(false);
  });

  it("typechecks a usage file in the scratch project", async () => {
    const result = await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: scratch }).then(
      () => "ok",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe("ok");
  }, 30_000);

  it("runs in Node against a real HTTP server", async () => {
    server.script({
      status: 200,
      headers: {
        "x-ratelimit-limit": "60",
        "x-ratelimit-remaining": "7",
        "x-ratelimit-reset": "60",
      },
      body: [{ id: 1, name: "Rex", categoryId: 1 }],
    });
    const { stdout } = await run(process.execPath, ["usage.mjs", `${server.url}/api`], {
      cwd: scratch,
    });
    expect(JSON.parse(stdout)).toEqual({
      pets: [{ id: 1, name: "Rex", categoryId: 1 }],
      rateLimit: { limit: 60, remaining: 7, resetAt: "1970-01-01T00:01:00.000Z" },
    });
    expect(server.requests[0]).toMatchObject({
      path: "/api/pets?limit=1",
      authorization: "Bearer packed-key",
    });
  }, 30_000);

  it("publishes (pnpm publish --dry-run) the built code, declarations and README, no tests", async () => {
    for (const [dir, name] of [
      [clientDir, "@animal-store/client"],
      [typesDir, "@animal-store/api-types"],
    ] as const) {
      const { stdout } = await run("pnpm", ["publish", "--dry-run", "--no-git-checks", "--json"], {
        cwd: dir,
      });
      const version = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
      const report = JSON.parse(stdout)[name];
      expect(report.id).toBe(`${name}@${version}`);
      const files: string[] = report.files.map((f: { path: string }) => f.path);
      expect(files).toEqual(
        expect.arrayContaining(["package.json", "dist/index.js", "dist/index.d.ts"]),
      );
      expect(files.filter((f) => /(^|\/)test\/|\.test\.|node_modules/.test(f))).toEqual([]);
      if (name === "@animal-store/client") expect(files).toContain("README.md");
    }
  }, 60_000);

  it("passes publint (strict) on what was installed from the tarball", async () => {
    const { messages } = await publint({
      pkgDir: join(scratch, "node_modules/@animal-store/client"),
      strict: true,
      pack: false,
    });
    // One suggestion is expected: publint would have the browser swap as a `browser` condition
    // in `exports` or `imports`. The `browser` field swaps one internal module (the plain call
    // path) in browser builds; a condition could do that only through a `#` import, which this
    // workspace's own tests would then resolve to the built file instead of the source.
    const expected = new Set(["USE_EXPORTS_OR_IMPORTS_BROWSER"]);
    expect(messages.filter((message) => !expected.has(message.code))).toEqual([]);
  }, 30_000);
});
