#!/usr/bin/env node
// `pnpm --filter @animal-store/openapi-engine planted-faults [--check] [index ...]`: plants each fault below
// in the engine's source (or in a fixture contract of its tests), runs the engine's own test that
// guards against it, and reports whether the test caught it; the file is restored after each. A
// fault whose text is no longer in its file is reported as an error (the code moved: update the
// fault), never as caught. Not part of `pnpm test` (one vitest run per fault): run it after
// changing a guarded edge or its test, and do not edit or commit the engine while it runs (a
// fault is in the working tree meanwhile). `--check` only reports whether each fault's text is
// still in its file, without planting anything.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const engine = fileURLToPath(new URL("..", import.meta.url));

/** [what, file (relative to the engine), text, replacement, test file, test name filter] */
const FAULTS = [
  [
    "headers timeout not passed on",
    "src/http-server/http-server.ts",
    "    headersTimeout: bounds.headersTimeoutMs,\n",
    "",
    "test/http-edges.test.ts",
    "dribbles its headers",
  ],
  [
    "1,000 slow sockets, no headers timeout",
    "src/http-server/http-server.ts",
    "    headersTimeout: bounds.headersTimeoutMs,\n",
    "",
    "test/http-edges.test.ts",
    "are all cut",
  ],
  [
    "request timeout not passed on (Node's 300 s)",
    "src/http-server/http-server.ts",
    "    requestTimeout: bounds.requestTimeoutMs,\n",
    "",
    "test/http-edges.test.ts",
    "body dribbles in",
  ],
  [
    "connection caps not installed",
    "src/http-server/http-server.ts",
    "  capConnections(\n",
    "  ((..._args: unknown[]) => {})(\n",
    "test/http-edges.test.ts",
    "per-address cap",
  ],
  [
    "HEAD not mapped to the GET operation",
    "src/routing/table.ts",
    'if (get && !byMethod.has("HEAD")) byMethod.set("HEAD", get);',
    "void get;",
    "test/http-edges.test.ts",
    "HEAD answers",
  ],
  [
    "OPTIONS through the credential check",
    "src/routing/router.ts",
    '} else if (req.method === "OPTIONS") {',
    '} else if (req.method === "OPTIONS-planted") {',
    "test/http-edges.test.ts",
    "answers 204 with Allow",
  ],
  [
    "the first of two Authorization headers used",
    "src/auth/credentials.ts",
    "authorizationLines(req) > 1",
    "authorizationLines(req) > 99",
    "test/http-edges.test.ts",
    "are refused 401",
  ],
  [
    "Node's own empty answers before a request",
    "src/http-server/http-server.ts",
    'server.on("clientError", answers.clientError);',
    "",
    "test/http-edges.test.ts",
    "Error shape, with the rate-limit",
  ],
  [
    "rate-limit headers only inside the API",
    "src/api-app.ts",
    "app.use(Lifecycle.after().use(identify).useIf(limited, countOutsideApi).handler());",
    "",
    "test/rate-limit-everywhere.test.ts",
    "",
  ],
  [
    "a lenient parser (Content-Length over Transfer-Encoding)",
    "src/http-server/http-server.ts",
    "    keepAliveTimeout: bounds.keepAliveTimeoutMs,\n",
    "    keepAliveTimeout: bounds.keepAliveTimeoutMs,\n    insecureHTTPParser: true,\n",
    "test/http-hardening.test.ts",
    "refuses",
  ],
  [
    "a recursive walk of the parsed body",
    "src/request-body/json-body.ts",
    "        req.body = parsed.value;\n",
    "        req.body = parsed.value;\n        (function walk(v: unknown): number { return Array.isArray(v) ? 1 + Math.max(0, ...v.map(walk)) : 0; })(req.body);\n",
    "test/http-hardening.test.ts",
    "10,000-deep",
  ],
  [
    "HTTP/1.0 with Transfer-Encoding served",
    "src/http-server/request-edge.ts",
    'if (req.httpVersionMinor === 0 && headers["transfer-encoding"] !== undefined) {',
    'if (req.httpVersionMinor === 7 && headers["transfer-encoding"] !== undefined) {',
    "test/http-edge-refusals.test.ts",
    "request behind it is never served",
  ],
  [
    "a repeated Host served",
    "src/http-server/request-edge.ts",
    "walkHeaderLines(req) > 1",
    "walkHeaderLines(req) > 9",
    "test/http-edge-refusals.test.ts",
    "repeated",
  ],
  [
    "an invalid Host served",
    "src/http-server/request-edge.ts",
    "!HOST.test(host) ||",
    "",
    "test/http-edge-refusals.test.ts",
    "invalid: 400",
  ],
  [
    "Node's bare 400 for a missing Host",
    "src/http-server/http-server.ts",
    "    requireHostHeader: false,\n",
    "",
    "test/http-edge-refusals.test.ts",
    "missing: 400",
  ],
  [
    "Node's bare 417 for an unsupported Expect",
    "src/http-server/http-server.ts",
    'server.on("checkExpectation",',
    '((..._args: unknown[]) => {})("checkExpectation",',
    "test/http-edge-refusals.test.ts",
    "unsupported Expect",
  ],
  [
    "CONNECT dropped without an answer",
    "src/http-server/http-server.ts",
    'server.on("connect",',
    '((..._args: unknown[]) => {})("connect",',
    "test/http-edge-refusals.test.ts",
    "CONNECT",
  ],
  [
    "Node's automatic 100 Continue",
    "src/http-server/http-server.ts",
    'server.on("checkContinue", serve);',
    "",
    "test/http-edge-refusals.test.ts",
    "no 100 Continue",
  ],
  [
    "the request target not checked against the contract's bound",
    "src/http-server/request-edge.ts",
    "if ((req.url as string).length > bounds.targetLimitBytes)",
    "if ((req.url as string).length > 10 * bounds.targetLimitBytes)",
    "test/http-edge-refusals.test.ts",
    "one byte over",
  ],
  [
    "an overflowing request target answered 431",
    "src/http-server/connection-answers.ts",
    "          ? overflowAnswer(err)\n",
    "          ? connectionErrors.headersTooLarge\n",
    "test/http-edge-refusals.test.ts",
    "100 KB target",
  ],
  [
    "a declared Content-Length over the limit not refused before the body",
    "src/http-server/request-edge.ts",
    "Number(length) > bounds.bodyLimitBytes",
    "Number(length) < 0",
    "test/http-edge-refusals.test.ts",
    "gets 413 at once",
  ],
  [
    "a chunked body over the limit drained, the connection kept",
    "src/request-body/json-body.ts",
    "      if (!req.complete) {",
    "      if (req.complete === undefined) {",
    "test/http-edge-refusals.test.ts",
    "cut at the limit",
  ],
  [
    "a request refused at the edge closed without lingering (the client's unread 413 reset away)",
    "src/http-server/connection-answers.ts",
    "      closeWithin(socket);\n      answer(req, res, what);\n",
    "      answer(req, res, what);\n",
    "test/lingering-close.test.ts",
    "",
  ],
  [
    "integer parameters coerced with JavaScript's number syntax",
    "src/validation/validate.ts",
    "  if (loose !== undefined) {",
    '  if (loose === "planted") {',
    "test/strict-integers.test.ts",
    "",
  ],
  [
    "no lookup budget for keys absent from the key directory",
    "src/auth/api-keys.ts",
    "    if (spent >= budget.perMinute || lookups >= budget.perMinute * GLOBAL_BUDGET_FACTOR) {",
    "    if (Number.isNaN(spent)) {",
    "src/auth/api-keys.test.ts",
    "no budget",
  ],
  [
    "the key directory never reloaded (a revoked key keeps working)",
    "src/auth/api-keys.ts",
    "    if (performance.now() - loadedAt >= ttlMs) {",
    "    if (loadedAt === Number.NEGATIVE_INFINITY) {",
    "src/auth/api-keys.test.ts",
    "a revoked key stops",
  ],
  [
    "lone surrogate escapes parsed (U+FFFD stored)",
    "src/request-body/text-check.ts",
    'if (text.includes("\\\\u") && hasLoneSurrogateEscape(text)) {',
    "if (false) {",
    "test/body-text.test.ts",
    "surrogate",
  ],
  [
    "bytes that are not UTF-8 decoded with U+FFFD",
    "src/request-body/text-check.ts",
    "  if (!isUtf8(body)) return",
    "  if (body.length < 0) return",
    "test/body-text.test.ts",
    "not UTF-8",
  ],
  [
    "zlib's errors answered validation_failed",
    "src/request-body/read-body.ts",
    "finish(engineErrors.malformedEncoding(encoding))",
    'finish(engineErrors.validationFailed("incorrect header check"))',
    "test/body-text.test.ts",
    "malformed_encoding",
  ],
  [
    "an unsupported Content-Encoding answered unsupported_media_type",
    "src/request-body/read-body.ts",
    "done(engineErrors.unsupportedEncoding(encoding));",
    "done(engineErrors.unsupportedMediaType());",
    "test/body-text.test.ts",
    "unsupported_encoding",
  ],
  [
    "a body schema's additionalProperties: false not applied (fixture NewWidget opened)",
    "test/fixtures/widgets.yaml",
    "    NewWidget:\n      type: object\n      additionalProperties: false\n",
    "    NewWidget:\n      type: object\n",
    "test/http-hardening.test.ts",
    "reach no object",
  ],
  [
    "a pattern's C1 range not applied (fixture Label without U+0080-U+009F)",
    "test/fixtures/widgets.yaml",
    "pattern: '^[^\\u0000-\\u001F\\u007F-\\u009F]+$'",
    "pattern: '^[^\\u0000-\\u001F\\u007F]+$'",
    "test/body-text.test.ts",
    "C1 controls",
  ],
  [
    "readiness logged on every failed probe, not once per change",
    "src/ops-routes/readiness.ts",
    "          if (before !== true) {",
    "          if (before !== undefined || !nowFailed) {",
    "src/ops-routes/readiness.test.ts",
    "once per change of state",
  ],
  [
    "readiness failure logged without its cause",
    "src/ops-routes/readiness.ts",
    "      current = current.cause;",
    "      current = undefined;",
    "src/ops-routes/readiness.test.ts",
    "",
  ],
  [
    "the request's operation not told to the tracer",
    "src/api-app.ts",
    "tracing ? routed.use(traceOperation(tracing, contract.basePath)) : routed",
    "routed",
    "test/request-tracing.test.ts",
    "name each request's operation",
  ],
  [
    "the rate-limit decision not run through the tracer",
    "src/rate-limit/middleware.ts",
    "const decided = tracing ? tracing.rateLimit(subject, consume) : consume();",
    "const decided = consume();",
    "test/request-tracing.test.ts",
    "name each request's operation",
  ],
  [
    "a $ref inside a vendor extension resolved by the validator",
    "src/validation/compile.ts",
    "    apiDoc: withoutExtensions(contract.spec, /^x-eov-/),\n",
    "    apiDoc: structuredClone(contract.spec),\n",
    "test/no-extensions.test.ts",
    "never resolved as a file",
  ],
  [
    "rate limiting counted without a policy",
    "src/api-app.ts",
    "  const limited = contract.rateLimited;",
    "  const limited = true;",
    "test/no-extensions.test.ts",
    "every answer is served",
  ],
  [
    "engine errors in the JSON Error body without an error schema",
    "src/errors/problem-details.ts",
    "  return { shape: problemShape, mismatch };",
    '  return { shape: contractShape("application/json"), mismatch };',
    "test/no-extensions.test.ts",
    "naming the field, where",
  ],
  [
    "a response declared without content answered as JSON",
    "src/responses/answers.ts",
    'types.length === 0\n          ? "none"',
    'types.length === 0\n          ? "json"',
    "test/answers.test.ts",
    "204 without a body",
  ],
  [
    "Accept not checked before the handler (no 406)",
    "src/api-app.ts",
    ".useIf(op.answers.negotiates, refuseUnacceptable)",
    ".useIf(false, refuseUnacceptable)",
    "test/answers.test.ts",
    "406",
  ],
  [
    "writeOnly kept in the serializer's schema",
    "src/responses/serializers.ts",
    "  return build({ ...(withoutWriteOnly(schema) as JsonObject), components } as never);",
    "  return build({ ...schema, components } as never);",
    "test/answers.test.ts",
    "writeOnly inside a oneOf",
  ],
  [
    "not_acceptable never checked against a contract's listed codes",
    "src/contract/error-codes.ts",
    '  if (operations.some(negotiatesContent)) codes.push("not_acceptable");\n',
    "",
    "src/contract/error-codes.test.ts",
    "must all be listed",
  ],
];

const run = (command, args) =>
  spawnSync(command, args, {
    cwd: engine,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });

const args = process.argv.slice(2);
const checkOnly = args.includes("--check");
const only = args.filter((arg) => arg !== "--check").map(Number);
let caught = 0;
let missed = 0;
let errors = 0;
for (const [index, [what, file, text, replacement, test, name]] of FAULTS.entries()) {
  if (only.length > 0 && !only.includes(index)) continue;
  const path = new URL(`../${file}`, import.meta.url);
  const original = readFileSync(path, "utf8");
  if (!original.includes(text)) {
    console.log(
      `[${index}] ${what}: ERROR, its text is not in ${file} (the code moved: update the fault)`,
    );
    errors++;
    continue;
  }
  if (checkOnly) {
    console.log(`[${index}] ${what}: its text is in ${file}`);
    continue;
  }
  // A function, so `$` in a replacement is written as it is (not a replacement pattern).
  writeFileSync(
    path,
    original.replace(text, () => replacement),
  );
  try {
    const result = run("pnpm", ["exec", "vitest", "run", test, ...(name ? ["-t", name] : [])]);
    // A run that finds no test to run passes: make sure the filter still names one.
    const ran = /Tests\s+\d+ (passed|failed)/.test(result.stdout);
    const failed = result.status !== 0 && /Tests\s+.*\d+ failed/.test(result.stdout);
    if (!ran) {
      console.log(`[${index}] ${what}: ERROR, no test of ${test} matches "${name}"`);
      errors++;
    } else if (failed) {
      caught++;
      console.log(`[${index}] ${what}: caught by ${test}${name ? ` (${name})` : ""}`);
    } else {
      missed++;
      console.log(`[${index}] ${what}: NOT caught by ${test}${name ? ` (${name})` : ""}`);
    }
  } finally {
    writeFileSync(path, original);
  }
}
console.log(
  checkOnly ? `${errors} errors` : `${caught} caught, ${missed} not caught, ${errors} errors`,
);
process.exitCode = missed === 0 && errors === 0 ? 0 : 1;
