/**
 * `pnpm drill:own-contract [--keep]`: the root README's "Bring your own contract", followed step by
 * step on a scratch copy of the repository as committed (`git archive HEAD`, `pnpm install
 * --offline`), with the foreign fixture contract (harbour-ferries.yaml) as the team's contract:
 * its contract and lint configuration in place, what the section says to delete deleted, the
 * minimum product code a team writes (own-contract/: its store and the checks of the schemes the
 * engine has no default for), then `pnpm generate`, `pnpm scaffold --prune`, `pnpm typecheck`,
 * `pnpm build`, the server (every operation answers `not_implemented` in the contract's error
 * shape, its security honoured), the stateful mock (a create, then a read), Prism, the docs and
 * one typed client call against the mock. Every process it starts is stopped before it exits.
 * apps/contract-tests/test/own-contract-drill.test.ts runs it in `pnpm test`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import {
  allowsAnonymous,
  deref,
  firstExample,
  isJsonObject,
  type JsonObject,
  type OpenApiDocument,
  readSpec,
  type SpecOperation,
  securitySchemes,
  serverBasePaths,
  specOperations,
} from "@animal-store/openapi";
import { freePort } from "@animal-store/test-support/free-port";
import { parse, stringify } from "yaml";

const USAGE = `Usage: pnpm drill:own-contract [--keep | --discard]

Follows README.md "Bring your own contract" on a scratch copy of the committed repository, with
packages/test-support/fixtures/contracts/harbour-ferries.yaml as the team's contract: replace,
delete, pnpm generate, pnpm scaffold --prune, pnpm typecheck, pnpm build, the server (each
operation answers not_implemented), the stateful mock, Prism, the docs and a typed client call.
--keep keeps the scratch copy (it is kept anyway when a step fails, unless --discard).`;

const repo = new URL("../../..", import.meta.url).pathname;
/** The team's hand-written product code, by its path in the repository. */
const teamCode = new URL("../own-contract/", import.meta.url).pathname;
const contractFixture = join(repo, "packages/test-support/fixtures/contracts/harbour-ferries.yaml");

/** Development credentials the team's verifiers accept (own-contract/apps/server/src/animal-store.ts). */
const CREDENTIALS = {
  FERRIES_BASIC_USER: "drill",
  FERRIES_BASIC_PASSWORD: `pw-${randomUUID()}`,
  FERRIES_OAUTH_TOKEN: `drill-token-${randomUUID()}`,
};

/** What the section says restates the Animal Store, deleted (besides the store, below). */
const DELETED = [
  "openapi/arazzo/*.arazzo.yaml",
  "openapi/released",
  "openapi/accepted-changes.yaml",
  "openapi/test/interface-document*.test.ts",
  "apps/web",
  "apps/bench",
  "apps/reliability-tests",
];
/** A test or test-support file that names the pets (`pets`, `Pet`, `createPet`, `petId`, `NewPet`...). */
const NAMES_PETS = /\bpets?\b|\bPets?\b|[a-z]Pets?\b|\bpetId\b|\bNewPet\b/;
/** An import of the Animal Store's store (all of src/store/ but what a team keeps). */
const ANIMAL_STORE_STORE = /src\/store\/(?!operation-io|types|index)/;

const args = process.argv.slice(2).filter((arg) => arg !== "--");
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = args.filter((arg) => arg !== "--keep" && arg !== "--discard");
if (unknown.length > 0) {
  console.error(`drill:own-contract: unknown argument ${unknown[0]}\n\n${USAGE}`);
  process.exit(2);
}
const keep = args.includes("--keep");
// For the suite: its output names each failing step and why; the copy is not left behind.
const discard = args.includes("--discard");

const scratch = mkdtempSync(join(tmpdir(), "drill-own-contract-"));
const log = join(scratch, "drill.log");
const note = (text: string) => writeFileSync(log, `${text}\n`, { flag: "a" });
// As on the team's machine: no NODE_ENV (the server's embedded default, development, prints the
// first start's key) and nothing of a test runner this drill may be started from (vitest sets
// NODE_ENV=test and VITEST*).
const inherited = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST")),
);
const env = {
  ...inherited,
  TURBO_TELEMETRY_DISABLED: "1",
  FORCE_COLOR: "0",
  NO_COLOR: "1",
  // Nested in the spec-edit drill or not: this copy's suites are not run.
  SPEC_EDIT_DRILL: "1",
  ...CREDENTIALS,
};

/** Processes started and not yet stopped (their groups are stopped on exit and on a signal). */
const running = new Set<ChildProcess>();

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
      running.delete(child);
      resolve();
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {}
    }, 10_000);
    child.once("close", () => {
      clearTimeout(timer);
      running.delete(child);
      resolve();
    });
    try {
      process.kill(-(child.pid as number), "SIGTERM");
    } catch {
      clearTimeout(timer);
      running.delete(child);
      resolve();
    }
  });
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    console.log(`\n${signal}: stopping the drill`);
    Promise.all([...running].map(stopGroup)).then(() => process.exit(0));
  });
}

/** Starts `command` in its own process group in `cwd`; its output goes to the log. */
function launch(command: string[], cwd: string, extraEnv: Record<string, string> = {}) {
  const [file, ...rest] = command as [string, ...string[]];
  const child = spawn(file, rest, {
    cwd,
    env: { ...env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.add(child);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.on("close", () => running.delete(child));
  return { child, output: () => output };
}

/** Runs `command` to its end; resolves with its exit code (its output appended to the log). */
async function run(command: string[], cwd = scratch, extraEnv: Record<string, string> = {}) {
  const started = launch(command, cwd, extraEnv);
  const code = await new Promise<number>((resolve) =>
    started.child.on("close", (exit) => resolve(exit ?? 1)),
  );
  note(`\n$ ${command.join(" ")}  (exit ${code})\n${started.output()}`);
  return code;
}

async function mustRun(command: string[], cwd = scratch) {
  const code = await run(command, cwd);
  if (code !== 0) throw new Error(`${command.join(" ")} exited ${code}`);
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Starts a long-running command and waits until `url` answers (any status). */
async function serve(command: string[], cwd: string, url: string, extraEnv = {}) {
  const started = launch(command, cwd, extraEnv);
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) break;
    try {
      await fetch(url);
      note(`\n$ ${command.join(" ")}  (answering at ${url})`);
      return started;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  note(`\n$ ${command.join(" ")}  (never answered at ${url})\n${started.output()}`);
  await stopGroup(started.child);
  // Its last words say why (a start-up error is one line on stderr, after any logs).
  const last = started.output().trim().split("\n").slice(-3).join(" | ");
  throw new Error(`${command.join(" ")} never answered at ${url}: ${last}`);
}

/** Deletes what a shell-style pattern (a `*` in the last segment only) names in the scratch copy. */
function remove(pattern: string) {
  const dir = join(scratch, dirname(pattern));
  const last = pattern.split("/").pop() as string;
  const matcher = new RegExp(
    `^${last.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`,
  );
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (!matcher.test(name)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    note(`(deleted ${relative(scratch, join(dir, name))})`);
  }
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/** A value of `schema` (resolved in `spec`) for a request: required properties only. */
function sample(spec: OpenApiDocument, raw: unknown): unknown {
  const schema = deref<JsonObject>(spec, raw);
  const example = firstExample(spec, schema);
  if (example !== undefined) return example;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((part) => sample(spec, part) as object));
  }
  switch (schema.type) {
    case "object": {
      const properties = isJsonObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      return Object.fromEntries(required.map((name) => [name, sample(spec, properties[name])]));
    }
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return [];
    default:
      if (schema.format === "uuid") return randomUUID();
      if (schema.format === "date") return "2027-03-01";
      if (schema.format === "date-time") return "2027-03-01T08:30:00Z";
      return "drill";
  }
}

interface DrillRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

/** A valid request of `op`: the examples of its parameters, a body of its first media type. */
function requestOf(spec: OpenApiDocument, base: string, op: SpecOperation): DrillRequest {
  let path = op.path;
  for (const parameter of op.parameters) {
    if (parameter.in !== "path") continue;
    const value = firstExample(spec, parameter) ?? sample(spec, parameter.schema);
    path = path.replace(`{${String(parameter.name)}}`, encodeURIComponent(String(value)));
  }
  const headers: Record<string, string> = {};
  let body: string | Uint8Array | undefined;
  const content = op.requestBody?.content;
  if (isJsonObject(content)) {
    const [mediaType, media] = Object.entries(content)[0] as [string, JsonObject];
    headers["content-type"] = mediaType;
    const value = firstExample(spec, media) ?? sample(spec, media.schema);
    if (mediaType === "application/json" || mediaType.endsWith("+json")) {
      body = JSON.stringify(value);
    } else if (mediaType === "application/x-www-form-urlencoded") {
      body = new URLSearchParams(
        Object.entries(value as JsonObject).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
    } else {
      // Raw bytes (an image, a file): the first bytes of a PNG stand for any.
      body = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    }
  }
  return { path: `${base}${path}`, method: op.method, headers, body };
}

/**
 * The API key an apiKey scheme is sent: the engine checks those against its key store, and the
 * server's first start prints one (README, Quick start); any well-formed one for the mock.
 */
let apiKey = `drill-${randomUUID()}`;

/** The credentials that satisfy `op`'s first requirement, as request headers. */
function credentialsOf(spec: OpenApiDocument, op: SpecOperation): Record<string, string> {
  const requirement = op.security.find((r) => Object.keys(r).length > 0) ?? {};
  const headers: Record<string, string> = {};
  const schemes = securitySchemes(spec);
  for (const name of Object.keys(requirement)) {
    const scheme = schemes[name] ?? {};
    if (scheme.type === "apiKey" && scheme.in === "header") {
      headers[String(scheme.name).toLowerCase()] = apiKey;
    } else if (scheme.type === "http" && String(scheme.scheme).toLowerCase() === "basic") {
      const pair = `${CREDENTIALS.FERRIES_BASIC_USER}:${CREDENTIALS.FERRIES_BASIC_PASSWORD}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
    } else if (scheme.type === "oauth2" || scheme.type === "http") {
      headers.authorization = `Bearer ${CREDENTIALS.FERRIES_OAUTH_TOKEN}`;
    } else {
      throw new Error(`${op.operationId}: the drill has no credential for scheme ${name}`);
    }
  }
  return headers;
}

async function call(origin: string, request: DrillRequest, headers: Record<string, string>) {
  const response = await fetch(`${origin}${request.path}`, {
    method: request.method,
    headers: { ...request.headers, ...headers },
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, type: response.headers.get("content-type") ?? "", body };
}

/** The contract's problem schema's required members (the drill's contract: type, title, status). */
function problemMembers(spec: OpenApiDocument): string[] {
  const schema = deref<JsonObject>(spec, (spec.components as JsonObject).schemas);
  const problem = deref<JsonObject>(spec, (schema as JsonObject).Problem);
  return problem.required as string[];
}

function expectProblem(
  spec: OpenApiDocument,
  what: string,
  answer: Awaited<ReturnType<typeof call>>,
  status: number,
  code: string,
) {
  const body = answer.body as JsonObject;
  const missing = problemMembers(spec).filter((name) => body?.[name] === undefined);
  if (
    answer.status !== status ||
    !answer.type.startsWith("application/problem+json") ||
    missing.length > 0 ||
    body.status !== status ||
    body.code !== code
  ) {
    throw new Error(
      `${what}: expected ${status} ${code} as application/problem+json with ${problemMembers(spec).join(", ")}; got ${answer.status} ${answer.type} ${JSON.stringify(answer.body).slice(0, 400)}`,
    );
  }
}

/** The drill's steps, in the README's order. */
const steps: { name: string; action: () => Promise<void>; prerequisite: boolean }[] = [];
/** Up to the build, each step needs the one before; the server, the mocks and the docs do not. */
let prerequisite = true;
const step = (name: string, action: () => Promise<void>) =>
  steps.push({ name, action, prerequisite });
let spec: OpenApiDocument = { openapi: "3.1.0" } as OpenApiDocument;
let base = "";

step("a scratch copy of HEAD, installed offline", async () => {
  await mustRun(["sh", "-c", `git -C '${repo}' archive HEAD | tar -x -C '${scratch}'`]);
  await mustRun(["pnpm", "install", "--frozen-lockfile", "--offline"]);
});

step("replace: the contract and the lint configuration (the generic layer)", async () => {
  writeFileSync(join(scratch, "openapi/openapi.yaml"), readFileSync(contractFixture, "utf8"));
  const config = parse(readFileSync(join(scratch, "openapi/redocly.yaml"), "utf8"));
  // "keep the `apis` and `extends` lines": the house rules go.
  const generic = { telemetry: config.telemetry, apis: config.apis, extends: config.extends };
  writeFileSync(join(scratch, "openapi/redocly.yaml"), stringify(generic));
  note(`(openapi/redocly.yaml)\n${stringify(generic)}`);
});

step("delete what restates the Animal Store; the team's Arazzo workflow", async () => {
  for (const pattern of DELETED) remove(pattern);
  for (const root of ["apps", "packages"]) {
    for (const file of files(join(scratch, root))) {
      const inSuite = /\.test(-d)?\.[cm]?[jt]sx?$/.test(file) || /\/test\//.test(file);
      if (!inSuite || !/\.[cm]?[jt]sx?$/.test(file)) continue;
      const source = readFileSync(file, "utf8");
      if (!NAMES_PETS.test(source) && !ANIMAL_STORE_STORE.test(source)) continue;
      rmSync(file);
      note(`(deleted ${relative(scratch, file)}: it names pets or their store)`);
    }
  }
  // And what imported a deleted file, until nothing does.
  for (let again = true; again; ) {
    again = false;
    for (const root of ["apps", "packages"]) {
      for (const file of files(join(scratch, root))) {
        if (!/\.test(-d)?\.[cm]?[jt]sx?$/.test(file) && !/\/test\/.*\.[cm]?[jt]sx?$/.test(file)) {
          continue;
        }
        const source = readFileSync(file, "utf8");
        const gone = [...source.matchAll(/from "(\.\.?\/[^"]+)"/g)].find(([, target]) => {
          const path = join(dirname(file), target as string);
          return ![path, path.replace(/\.js$/, ".ts"), path.replace(/\.js$/, ".tsx")].some(
            existsSync,
          );
        });
        if (!gone) continue;
        rmSync(file);
        note(`(deleted ${relative(scratch, file)}: it imports ${gone[1]}, deleted)`);
        again = true;
      }
    }
  }
  cpSync(join(teamCode, "openapi"), join(scratch, "openapi"), { recursive: true });
});

step(
  "replace: the store, and the checks of the schemes the engine has no default for",
  async () => {
    const store = join(scratch, "apps/server/src/store");
    for (const name of readdirSync(store)) {
      if (name !== "operation-io.ts") rmSync(join(store, name), { recursive: true });
    }
    // The Animal Store's `pnpm migration` writes migrations of the pets' columns.
    rmSync(join(scratch, "apps/server/src/migration-cli.ts"));
    cpSync(join(teamCode, "apps"), join(scratch, "apps"), { recursive: true });
    // The team's first typed client call (run against the mock, below).
    cpSync(join(teamCode, "packages"), join(scratch, "packages"), { recursive: true });
    // The store interface's name, where the kept files name it.
    for (const file of [
      "apps/server/scripts/scaffold.mjs",
      "apps/server/src/handlers/index.ts",
      "apps/server/src/handlers/types.ts",
    ]) {
      const path = join(scratch, file);
      writeFileSync(path, readFileSync(path, "utf8").replaceAll("PetStore", "FerryStore"));
    }
  },
);

step("pnpm generate", () => mustRun(["pnpm", "generate"]));
step("pnpm scaffold --prune", () => mustRun(["pnpm", "scaffold", "--prune"]));
step("pnpm typecheck", () => mustRun(["pnpm", "typecheck"]));
step("pnpm build", async () => {
  await mustRun(["pnpm", "build"]);
  spec = readSpec(join(scratch, "openapi/dist/openapi.json")).spec;
  base = serverBasePaths(spec)[0] ?? "";
});
prerequisite = false;

step("the server: every operation answers not_implemented, its security honoured", async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await serve(
    ["node", "dist/boot.js"],
    join(scratch, "apps/server"),
    `${origin}/healthz`,
    { PORT: String(port), DATABASE_URL: `file:${join(scratch, "ferries.db")}` },
  );
  try {
    const printed = /shown only this once:\s+(\S+)/.exec(server.output());
    if (!printed) throw new Error(`the server printed no development key: ${server.output()}`);
    apiKey = printed[1] as string;
    for (const op of specOperations(spec)) {
      const request = requestOf(spec, base, op);
      if (!allowsAnonymous(op)) {
        const refused = await call(origin, request, {});
        expectProblem(spec, `${op.operationId} without a credential`, refused, 401, "unauthorized");
      }
      const answer = await call(origin, request, credentialsOf(spec, op));
      expectProblem(spec, op.operationId, answer, 500, "not_implemented");
      note(`(${op.method} ${request.path}: ${answer.status} ${JSON.stringify(answer.body)})`);
    }
  } finally {
    await stopGroup(server.child);
    note(server.output());
  }
  if (await listening(port))
    throw new Error(`port ${port} still listening after the server stopped`);
});

let created: JsonObject | undefined;
step("pnpm mock --stateful --any-contract: a create, then its read", async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const mock = await serve(
    ["pnpm", "mock", "--stateful", "--any-contract", "--port", String(port)],
    scratch,
    `${origin}/healthz`,
  );
  try {
    const ops = specOperations(spec);
    const create = ops.find((op) => op.method === "POST" && !op.path.includes("{"));
    if (!create) throw new Error("the contract has no collection POST");
    const request = requestOf(spec, base, create);
    const answer = await call(origin, request, credentialsOf(spec, create));
    if (answer.status !== 201 || !isJsonObject(answer.body)) {
      throw new Error(`${create.operationId}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    created = answer.body;
    const read = ops.find((op) => op.method === "GET" && op.path.startsWith(`${create.path}/{`));
    if (!read) throw new Error(`no item GET under ${create.path}`);
    const param = read.path.slice(create.path.length + 2, -1);
    const readRequest = requestOf(spec, base, read);
    readRequest.path = `${base}${create.path}/${encodeURIComponent(String(created.id))}`;
    const got = await call(origin, readRequest, credentialsOf(spec, read));
    if (got.status !== 200 || JSON.stringify(got.body) !== JSON.stringify(created)) {
      throw new Error(
        `${read.operationId} (${param} ${String(created.id)}): ${got.status} ${JSON.stringify(got.body)}, created ${JSON.stringify(created)}`,
      );
    }
    note(`(created and read ${JSON.stringify(created)})`);

    // One typed client call against the mock: the read again, through the client.
    const client = join(scratch, "packages/client");
    await mustRun(["pnpm", "exec", "tsc", "-p", "drill/tsconfig.json"], client);
    const token = CREDENTIALS.FERRIES_OAUTH_TOKEN;
    const called = launch(
      ["node", "drill/out/call.js", `${origin}${base}`, token, String(created.id)],
      client,
    );
    const code = await new Promise<number>((resolve) =>
      called.child.on("close", (exit) => resolve(exit ?? 1)),
    );
    note(`\n$ node drill/out/call.js (exit ${code})\n${called.output()}`);
    const line = called.output().trim().split("\n").pop() ?? "";
    if (code !== 0 || line !== JSON.stringify(created)) {
      throw new Error(
        `the typed client call: exit ${code}, ${line}; created ${JSON.stringify(created)}`,
      );
    }
  } finally {
    await stopGroup(mock.child);
    note(mock.output());
  }
  if (await listening(port)) throw new Error(`port ${port} still listening after the mock stopped`);
});

step("pnpm mock (Prism): the contract's example of a list", async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const list = specOperations(spec).find((op) => op.method === "GET" && allowsAnonymous(op));
  if (!list) throw new Error("the contract has no GET anyone may call");
  const mock = await serve(
    ["pnpm", "mock", "--port", String(port)],
    scratch,
    `${origin}${base}${list.path}`,
  );
  try {
    const answer = await call(origin, requestOf(spec, base, list), {});
    if (answer.status !== 200) throw new Error(`${list.operationId}: ${answer.status}`);
    note(`(Prism ${list.operationId}: ${JSON.stringify(answer.body)})`);
  } finally {
    await stopGroup(mock.child);
    note(mock.output());
  }
  if (await listening(port)) throw new Error(`port ${port} still listening after Prism stopped`);
});

step("pnpm run docs", async () => {
  await mustRun(["pnpm", "run", "docs"]);
  const page = readFileSync(join(scratch, "apps/docs/dist/index.html"), "utf8");
  const title = String((spec.info as JsonObject).title);
  if (!page.includes(title)) throw new Error(`the docs page does not name ${title}`);
});

const failed: string[] = [];
const started = Date.now();
console.log(`drill:own-contract: scratch ${scratch} (log: ${log})`);
for (const { name, action, prerequisite: needed } of steps) {
  const begun = Date.now();
  try {
    note(`\n== ${name}`);
    await action();
    console.log(`  ok    ${name} (${((Date.now() - begun) / 1000).toFixed(0)} s)`);
  } catch (error) {
    failed.push(name);
    const message = error instanceof Error ? error.message : String(error);
    note(`FAILED: ${message}`);
    console.log(`  FAIL  ${name}: ${message.replaceAll("\n", " | ").slice(0, 3000)}`);
    // What follows needs this step; past the build, the steps stand alone.
    if (needed) break;
  }
}
await Promise.all([...running].map(stopGroup));
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(
  failed.length === 0
    ? `drill:own-contract: PASS in ${minutes} min`
    : `drill:own-contract: FAIL after ${minutes} min (log: ${log}); failed steps: ${JSON.stringify(failed)}`,
);
if ((failed.length === 0 && !keep) || discard) rmSync(scratch, { recursive: true, force: true });
process.exit(failed.length === 0 ? 0 : 1);
