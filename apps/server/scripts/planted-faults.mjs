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

/**
 * [what, file (relative to apps/server: the engine's are in packages/openapi-engine), text,
 * replacement, test file (relative to apps/server; `engine:` + a path relative to the engine
 * for one of the engine's own suites), test name filter]
 */
const FAULTS = [
  [
    "headers timeout not passed on",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
    "    headersTimeout: bounds.headersTimeoutMs,\n",
    "",
    "test/http-edges.test.ts",
    "dribbles its headers",
  ],
  [
    "1,000 slow sockets, no headers timeout",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
    "    headersTimeout: bounds.headersTimeoutMs,\n",
    "",
    "test/http-edges.test.ts",
    "are all cut",
  ],
  [
    "request timeout not passed on (Node's 300 s)",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
    "    requestTimeout: bounds.requestTimeoutMs,\n",
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
    "    keepAliveTimeout: bounds.keepAliveTimeoutMs,\n",
    "    keepAliveTimeout: bounds.keepAliveTimeoutMs,\n    insecureHTTPParser: true,\n",
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
    "        req.body = parsed.value;\n",
    "        req.body = parsed.value;\n        (function walk(v: unknown): number { return Array.isArray(v) ? 1 + Math.max(0, ...v.map(walk)) : 0; })(req.body);\n",
    "test/http-hardening.test.ts",
    "10,000-deep",
  ],
  [
    "HTTP/1.0 with Transfer-Encoding served",
    "../../packages/openapi-engine/src/http-server/request-edge.ts",
    'if (req.httpVersionMinor === 0 && headers["transfer-encoding"] !== undefined) {',
    'if (req.httpVersionMinor === 7 && headers["transfer-encoding"] !== undefined) {',
    "test/http-edge-refusals.test.ts",
    "request behind it is never served",
  ],
  [
    "a repeated Host served",
    "../../packages/openapi-engine/src/http-server/request-edge.ts",
    "hostLines(req.rawHeaders) > 1",
    "hostLines(req.rawHeaders) > 9",
    "test/http-edge-refusals.test.ts",
    "repeated",
  ],
  [
    "an invalid Host served",
    "../../packages/openapi-engine/src/http-server/request-edge.ts",
    "!HOST.test(host) ||",
    "",
    "test/http-edge-refusals.test.ts",
    "invalid: 400",
  ],
  [
    "Node's bare 400 for a missing Host",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
    "    requireHostHeader: false,\n",
    "",
    "test/http-edge-refusals.test.ts",
    "missing: 400",
  ],
  [
    "Node's bare 417 for an unsupported Expect",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
    'server.on("checkExpectation",',
    '((..._args: unknown[]) => {})("checkExpectation",',
    "test/http-edge-refusals.test.ts",
    "unsupported Expect",
  ],
  [
    "CONNECT dropped without an answer",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
    'server.on("connect",',
    '((..._args: unknown[]) => {})("connect",',
    "test/http-edge-refusals.test.ts",
    "CONNECT",
  ],
  [
    "Node's automatic 100 Continue",
    "../../packages/openapi-engine/src/http-server/http-server.ts",
    'server.on("checkContinue", serve);',
    "",
    "test/http-edge-refusals.test.ts",
    "no 100 Continue",
  ],
  [
    "the request target not checked against the contract's bound",
    "../../packages/openapi-engine/src/http-server/request-edge.ts",
    "if ((req.url as string).length > bounds.targetLimitBytes)",
    "if ((req.url as string).length > 10 * bounds.targetLimitBytes)",
    "test/http-edge-refusals.test.ts",
    "one byte over",
  ],
  [
    "an overflowing request target answered 431",
    "../../packages/openapi-engine/src/http-server/connection-answers.ts",
    "          ? overflowAnswer(err)\n",
    "          ? connectionErrors.headersTooLarge\n",
    "test/http-edge-refusals.test.ts",
    "100 KB target",
  ],
  [
    "a declared Content-Length over the limit not refused before the body",
    "../../packages/openapi-engine/src/http-server/request-edge.ts",
    "Number(length) > bounds.bodyLimitBytes",
    "Number(length) < 0",
    "test/http-edge-refusals.test.ts",
    "gets 413 at once",
  ],
  [
    "a chunked body over the limit drained, the connection kept",
    "../../packages/openapi-engine/src/request-body/json-body.ts",
    "      if (!req.complete) {",
    "      if (req.complete === undefined) {",
    "test/http-edge-refusals.test.ts",
    "cut at the limit",
  ],
  [
    "an answered connection left half-open",
    "../../packages/openapi-engine/src/http-server/connection-answers.ts",
    "    closeWithin(socket);\n",
    "",
    "test/closed-connections.test.ts",
    "",
  ],
  [
    "integer parameters coerced with JavaScript's number syntax",
    "../../packages/openapi-engine/src/validation/validate.ts",
    "  if (loose !== undefined) {",
    '  if (loose === "planted") {',
    "test/strict-integers.test.ts",
    "",
  ],
  [
    "no lookup budget for keys absent from the key directory",
    "../../packages/openapi-engine/src/auth/api-keys.ts",
    "    if (spent >= budget.perMinute || lookups >= budget.perMinute * GLOBAL_BUDGET_FACTOR) {",
    "    if (Number.isNaN(spent)) {",
    "engine:src/auth/api-keys.test.ts",
    "no budget",
  ],
  [
    "the key directory never reloaded (a revoked key keeps working)",
    "../../packages/openapi-engine/src/auth/api-keys.ts",
    "    if (performance.now() - loadedAt >= ttlMs) return reload()",
    "    if (loadedAt === Number.NEGATIVE_INFINITY) return reload()",
    "engine:src/auth/api-keys.test.ts",
    "a revoked key stops",
  ],
  [
    "lone surrogate escapes parsed (U+FFFD stored)",
    "../../packages/openapi-engine/src/request-body/text-check.ts",
    'if (text.includes("\\\\u") && hasLoneSurrogateEscape(text)) {',
    "if (false) {",
    "test/body-text.test.ts",
    "surrogate",
  ],
  [
    "bytes that are not UTF-8 decoded with U+FFFD",
    "../../packages/openapi-engine/src/request-body/text-check.ts",
    "  if (!isUtf8(body)) return",
    "  if (body.length < 0) return",
    "test/body-text.test.ts",
    "not UTF-8",
  ],
  [
    "PetName's pattern without the C1 controls (bundle)",
    "../../openapi/dist/openapi.json",
    '"pattern": "^[^\\\\u0000-\\\\u001F\\\\u007F-\\\\u009F]+$"',
    '"pattern": "^[^\\\\u0000-\\\\u001F\\\\u007F]+$"',
    "test/body-text.test.ts",
    "C1 controls",
  ],
  [
    "zlib's errors answered validation_failed",
    "../../packages/openapi-engine/src/request-body/read-body.ts",
    "finish(engineErrors.malformedEncoding(encoding))",
    'finish(engineErrors.validationFailed("incorrect header check"))',
    "test/body-text.test.ts",
    "malformed_encoding",
  ],
  [
    "an unsupported Content-Encoding answered unsupported_media_type",
    "../../packages/openapi-engine/src/request-body/read-body.ts",
    "done(engineErrors.unsupportedEncoding(encoding));",
    "done(engineErrors.unsupportedMediaType());",
    "test/body-text.test.ts",
    "unsupported_encoding",
  ],
  [
    "PostgreSQL creates written one statement each (no group commit)",
    "src/store/batched-creates.ts",
    "    private readonly maxBatch = 500,",
    "    private readonly maxBatch = 1,",
    "src/store/batched-creates.test.ts",
    "as one statement",
  ],
  [
    "a refused PostgreSQL batch fails every create in it",
    "src/store/batched-creates.ts",
    "      for (const item of batch) await this.commit([item]);",
    "      for (const { reject } of batch) reject(err);",
    "src/store/batched-creates.test.ts",
    "only the refused one fails",
  ],
  [
    "a batch's rows handed out in the order PostgreSQL returned them, unchecked",
    "src/store/batched-creates.ts",
    "  if (sorted.every((row, i) => contentKey(row) === keys[i])) return sorted;",
    "  if (keys.length > 0) return sorted;",
    "src/store/batched-creates.test.ts",
    "by content",
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

const engine = fileURLToPath(new URL("../../../packages/openapi-engine/", import.meta.url));
const run = (command, args, cwd = server) =>
  spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
// The engine first (the server's suites import its build), then the server (its child-process
// suites run dist/main.js).
const build = () => {
  const built = run("pnpm", ["exec", "tsc", "-p", "tsconfig.build.json"], engine);
  return built.status !== 0 ? built : run("pnpm", ["exec", "tsc", "-p", "tsconfig.build.json"]);
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
    const [cwd, file] = test.startsWith("engine:") ? [engine, test.slice(7)] : [server, test];
    const result = run("pnpm", ["exec", "vitest", "run", file, ...(name ? ["-t", name] : [])], cwd);
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
