#!/usr/bin/env node
// `pnpm --filter @animal-store/server planted-faults [index ...]`: plants each fault below in the
// server (or the bundled spec), rebuilds, runs the test that guards against it, and reports
// whether the test caught it; the source is restored after each. Not part of `pnpm test` (it
// rebuilds the server once per fault): run it after changing a guarded edge or its test, and do
// not edit, build or commit the server while it runs (a fault is in the working tree meanwhile).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const server = fileURLToPath(new URL("..", import.meta.url));

/** [what, file (relative to apps/server), text, replacement, test file, test name filter] */
const FAULTS = [
  [
    "headers timeout not passed on",
    "src/engine/node/server.ts",
    "      headersTimeout: bounds.headersTimeoutMs,\n",
    "",
    "test/http-edges.test.ts",
    "dribbles its headers",
  ],
  [
    "1,000 slow sockets, no headers timeout",
    "src/engine/node/server.ts",
    "      headersTimeout: bounds.headersTimeoutMs,\n",
    "",
    "test/http-edges.test.ts",
    "are all cut",
  ],
  [
    "request timeout not passed on (Node's 300 s)",
    "src/engine/node/server.ts",
    "      requestTimeout: bounds.requestTimeoutMs,\n",
    "",
    "test/http-edges.test.ts",
    "body dribbles in",
  ],
  [
    "connection caps not installed",
    "src/engine/node/server.ts",
    "  capConnections(\n",
    "  ((..._args: unknown[]) => {})(\n",
    "test/http-edges.test.ts",
    "per-address cap",
  ],
  [
    "HEAD not mapped to the GET operation",
    "src/engine/contract/operation-table.ts",
    'if (get && !byMethod.has("HEAD")) byMethod.set("HEAD", get);',
    "void get;",
    "test/http-edges.test.ts",
    "HEAD answers",
  ],
  [
    "OPTIONS through the credential check",
    "src/engine/contract/operation-table.ts",
    '} else if (req.method === "OPTIONS") {',
    '} else if (req.method === "OPTIONS-planted") {',
    "test/http-edges.test.ts",
    "answers 204 with Allow",
  ],
  [
    "the first of two Authorization headers used",
    "src/engine/auth/caller.ts",
    "authorizationHeaders(req) > 1",
    "authorizationHeaders(req) > 99",
    "test/http-edges.test.ts",
    "are refused 401",
  ],
  [
    "Node's own empty answers before a request",
    "src/engine/node/server.ts",
    'server.on("clientError", answers.clientError);',
    "",
    "test/http-edges.test.ts",
    "Error shape, with the rate-limit",
  ],
  [
    "rate-limit headers only inside the API",
    "src/engine/app.ts",
    "app.use(pipeline([markUncounted, identify, rateLimit]));",
    "",
    "test/rate-limit-everywhere.test.ts",
    "",
  ],
  [
    "a lenient parser (Content-Length over Transfer-Encoding)",
    "src/engine/node/server.ts",
    "      keepAliveTimeout: bounds.keepAliveTimeoutMs,\n",
    "      keepAliveTimeout: bounds.keepAliveTimeoutMs,\n      insecureHTTPParser: true,\n",
    "test/http-hardening.test.ts",
    "refuses",
  ],
  [
    "NewPet without additionalProperties: false (bundle)",
    "../../openapi/dist/openapi.json",
    '"additionalProperties": false,\n        "required": [\n          "name",',
    '"required": [\n          "name",',
    "test/http-hardening.test.ts",
    "reach no object",
  ],
  [
    "a recursive walk of the parsed body",
    "src/engine/http/request-body.ts",
    "    parseJson(req, res, next);\n",
    "    parseJson(req, res, (err?: unknown) => { const depth = (v: unknown): number => Array.isArray(v) ? 1 + Math.max(0, ...v.map(depth)) : 0; if (!err) depth(req.body); next(err); });\n",
    "test/http-hardening.test.ts",
    "10,000-deep",
  ],
];

const run = (command, args) =>
  spawnSync(command, args, {
    cwd: server,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
const build = () => run("pnpm", ["exec", "tsc", "-p", "tsconfig.build.json"]);

const only = process.argv.slice(2).map(Number);
let missed = 0;
for (const [index, [what, file, text, replacement, test, name]] of FAULTS.entries()) {
  if (only.length > 0 && !only.includes(index)) continue;
  const path = new URL(`../${file}`, import.meta.url);
  const original = readFileSync(path, "utf8");
  if (!original.includes(text)) {
    console.log(`[${index}] ${what}: the code moved, update the fault`);
    missed++;
    continue;
  }
  writeFileSync(path, original.replace(text, replacement));
  try {
    if (build().status !== 0) throw new Error(`the planted fault does not build: ${what}`);
    const result = run("pnpm", ["exec", "vitest", "run", test, ...(name ? ["-t", name] : [])]);
    const caught = result.status !== 0;
    if (!caught) missed++;
    console.log(
      `[${index}] ${what}: ${caught ? "caught" : "NOT caught"} by ${test}${name ? ` (${name})` : ""}`,
    );
  } finally {
    writeFileSync(path, original);
  }
}
build();
process.exitCode = missed === 0 ? 0 : 1;
