#!/usr/bin/env node
// `pnpm --filter @animal-store/server planted-faults [index ...]`: plants each fault below in the
// engine (or the bundled spec), rebuilds, runs the test that guards against it, and reports
// whether the test caught it; the source is restored after each. Not part of `pnpm test` (it
// rebuilds the server once per fault): run it after changing a guarded edge or its test, and do
// not edit, build or commit the server while it runs (a fault is in the working tree meanwhile).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const server = fileURLToPath(new URL("..", import.meta.url));

/** [what, file (relative to apps/server: the engine's are in packages/openapi-engine), text, replacement, test file, test name filter] */
const FAULTS = [
  [
    "headers timeout not passed on",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
    "      headersTimeout: bounds.headersTimeoutMs,\n",
    "",
    "test/http-edges.test.ts",
    "dribbles its headers",
  ],
  [
    "1,000 slow sockets, no headers timeout",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
    "      headersTimeout: bounds.headersTimeoutMs,\n",
    "",
    "test/http-edges.test.ts",
    "are all cut",
  ],
  [
    "request timeout not passed on (Node's 300 s)",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
    "      requestTimeout: bounds.requestTimeoutMs,\n",
    "",
    "test/http-edges.test.ts",
    "body dribbles in",
  ],
  [
    "connection caps not installed",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
    "  capConnections(\n",
    "  ((..._args: unknown[]) => {})(\n",
    "test/http-edges.test.ts",
    "per-address cap",
  ],
  [
    "HEAD not mapped to the GET operation",
    "../../packages/openapi-engine/src/routing/table.ts",
    'if (get && !byMethod.has("HEAD")) byMethod.set("HEAD", get);',
    "void get;",
    "test/http-edges.test.ts",
    "HEAD answers",
  ],
  [
    "OPTIONS through the credential check",
    "../../packages/openapi-engine/src/routing/router.ts",
    '} else if (req.method === "OPTIONS") {',
    '} else if (req.method === "OPTIONS-planted") {',
    "test/http-edges.test.ts",
    "answers 204 with Allow",
  ],
  [
    "the first of two Authorization headers used",
    "../../packages/openapi-engine/src/auth/credentials.ts",
    "authorizationHeaders(req) > 1",
    "authorizationHeaders(req) > 99",
    "test/http-edges.test.ts",
    "are refused 401",
  ],
  [
    "Node's own empty answers before a request",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
    'server.on("clientError", answers.clientError);',
    "",
    "test/http-edges.test.ts",
    "Error shape, with the rate-limit",
  ],
  [
    "rate-limit headers only inside the API",
    "../../packages/openapi-engine/src/api-app.ts",
    "app.use(Lifecycle.after().use(identify).use(countOutsideApi).handler());",
    "",
    "test/rate-limit-everywhere.test.ts",
    "",
  ],
  [
    "a lenient parser (Content-Length over Transfer-Encoding)",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
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
    "../../packages/openapi-engine/src/request-body/json-body.ts",
    "      next(err === undefined ? undefined : fromBodyParser(err, limitBytes)),\n",
    "      next(err === undefined ? ((function walk(v: unknown): number { return Array.isArray(v) ? 1 + Math.max(0, ...v.map(walk)) : 0; })(req.body), undefined) : fromBodyParser(err, limitBytes)),\n",
    "test/http-hardening.test.ts",
    "10,000-deep",
  ],
  [
    "readiness logged on every failed probe, not once per change",
    "../../packages/openapi-engine/src/ops-routes/readiness.ts",
    "          if (before !== true) {",
    "          if (before !== undefined || !nowFailed) {",
    "test/unreachable-database.test.ts",
    "production",
  ],
  [
    "readiness failure logged without its cause",
    "../../packages/openapi-engine/src/ops-routes/readiness.ts",
    "      current = current.cause;",
    "      current = undefined;",
    "test/unreachable-database.test.ts",
    "production",
  ],
  [
    "the request's span not named after its operation",
    "../../packages/openapi-engine/src/api-app.ts",
    "(tracing ? routed.use(traceOperation(tracing, contract.basePath)) : routed)",
    "(routed)",
    "test/tracing.test.ts",
    "one trace",
  ],
  [
    "the rate-limit decision not in a span",
    "../../packages/openapi-engine/src/rate-limit/middleware.ts",
    "const decided = tracing ? tracing.rateLimit(subject, consume) : consume();",
    "const decided = consume();",
    "test/tracing.test.ts",
    "one trace",
  ],
];

const run = (command, args) =>
  spawnSync(command, args, {
    cwd: server,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
// The engine first (the server's suites import its build), then the server (its child-process
// suites run dist/main.js).
const build = () => {
  const engine = spawnSync("pnpm", ["exec", "tsc", "-p", "tsconfig.build.json"], {
    cwd: new URL("../../../packages/openapi-engine/", import.meta.url),
    encoding: "utf8",
  });
  return engine.status !== 0 ? engine : run("pnpm", ["exec", "tsc", "-p", "tsconfig.build.json"]);
};

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
