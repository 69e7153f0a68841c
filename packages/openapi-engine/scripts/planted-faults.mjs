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
    "a templated path matched before a concrete one",
    "src/routing/table.ts",
    ".sort((a, b) => templatedSegments(a) - templatedSegments(b));",
    ".sort(() => 0);",
    "test/path-matching.test.ts",
    "concrete path's operation",
  ],
  [
    "a stub's 500 not_implemented stops the start",
    "src/warm-up/warm-up.ts",
    "if (response.status === 500 && !isNotImplemented(text)) {",
    "if (response.status === 500) {",
    "src/warm-up/warm-up.test.ts",
    "stub answering",
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
    'a base path of "" (a server at the root) not served',
    "src/routing/router.ts",
    'if (base === "") return "";',
    'if (base === "") continue;',
    "test/base-paths.test.ts",
    "under each of them",
  ],
  [
    "the ops routes shadowed by an API at the root",
    "src/routing/router.ts",
    "if (outside?.has(full)) {",
    "if (outside?.has(`${full}planted`)) {",
    "test/base-paths.test.ts",
    "ops routes at their own paths when the root",
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
    "src/request-body/body-step.ts",
    "    req.body = parsed.value;\n",
    "    req.body = parsed.value;\n    (function walk(v: unknown): number { return Array.isArray(v) ? 1 + Math.max(0, ...v.map(walk)) : 0; })(req.body);\n",
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
    "src/request-body/body-step.ts",
    "  if (!req.complete) {",
    "  if (req.complete === undefined) {",
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
    "RateLimit not written on the engine's answers",
    "src/rate-limit/middleware.ts",
    'setEngineHeader(target, "ratelimit", "RateLimit", decision.serviceLimits);',
    "",
    "test/ietf-rate-limit-fields.test.ts",
    "",
  ],
  [
    "RateLimit's minute counted off the day's requests (disagrees with X-RateLimit-*)",
    "src/rate-limit/decision.ts",
    "Math.max(0, limits.perMinute - counts.minute),",
    "Math.max(0, limits.perMinute - counts.day),",
    "test/ietf-rate-limit-fields.test.ts",
    "Retry-After is the minute's t",
  ],
  [
    "RateLimit's t rounded down (now + t falls before X-RateLimit-Reset)",
    "src/rate-limit/decision.ts",
    "const minuteSeconds = secondsUntil(w.minuteEndMs / 1000, nowMs);",
    "const minuteSeconds = Math.floor((w.minuteEndMs - nowMs) / 1000);",
    "test/ietf-rate-limit-fields.test.ts",
    "OPTIONS carry them",
  ],
  [
    "RateLimit-Policy and RateLimit left out of the answers given before a request",
    "src/http-server/connection-answers.ts",
    "? rateLimitHeaderEntries(decision)",
    "? rateLimitHeaderEntries(decision).slice(0, 3)",
    "test/http-edges.test.ts",
    "Error shape, with the rate-limit",
  ],
  [
    "a requirement's scopes not enforced",
    "src/auth/security-schemes.ts",
    "if (missingScopes.length === 0) {",
    "if (missingScopes.length >= 0) {",
    "test/security.test.ts",
    "without the scope 403",
  ],
  [
    "a combination satisfied by one of its schemes",
    "src/auth/security-schemes.ts",
    "if (credentials.length < parts.length) continue;",
    "if (credentials.length === 0) continue;",
    "test/security.test.ts",
    "both credentials needed",
  ],
  [
    "a credential other than a key counted on the address",
    "src/auth/credentials.ts",
    "if (credential === undefined) {",
    "if (credential?.key === undefined) {",
    "test/security.test.ts",
    "each on its own window",
  ],
  [
    "formats in the validator's fast mode (2023-02-30 taken for a date)",
    "src/validation/compile.ts",
    "    ajvFormats: ENGINE_FORMATS,\n",
    "",
    "test/parameters.test.ts",
    "2023-02-30",
  ],
  [
    "an unencoded reserved character in a query value refused (a date-time's colons)",
    "src/validation/compile.ts",
    'if (p.in === "query") p.allowReserved = true;',
    'if (p.in === "query-planted") p.allowReserved = true;',
    "test/parameters.test.ts",
    "unencoded colons",
  ],
  [
    "cookies not parsed for the validator (every cookie parameter missing)",
    "src/validation/request-validation.ts",
    "        withCookies(req);\n",
    "",
    "test/parameters.test.ts",
    "a missing required cookie",
  ],
  [
    "a parameter's default style left unwritten (an array header refused)",
    "src/validation/compile.ts",
    "      p.style = DEFAULT_STYLES[p.in];",
    "      void DEFAULT_STYLES;",
    "test/parameters.test.ts",
    "a header array",
  ],
  [
    "a body that is not required taken as required",
    "src/request-body/media-types.ts",
    "const required = requestBody?.required === true;",
    "const required = requestBody !== undefined;",
    "test/bodies.test.ts",
    "no body at all",
  ],
  [
    "form and multipart fields left as text (not coerced to the schema's types)",
    "src/validation/request-validation.ts",
    'const by = family === "form" || family === "multipart" ? coercing() : validator;',
    "const by = validator;",
    "test/bodies.test.ts",
    "coerced",
  ],
  [
    "multipart parts unbounded in count",
    "src/compiled-operation.ts",
    "return { parts: MULTIPART_MAX_PARTS, partBytes: bodyLimitBytes };",
    "return { parts: Number.POSITIVE_INFINITY, partBytes: bodyLimitBytes };",
    "test/bodies.test.ts",
    "parts with 413",
  ],
  [
    "a $ref inside a vendor extension resolved by the validator",
    "src/validation/compile.ts",
    "    apiDoc: validatedCopy(withoutExtensions(contract.spec, /^x-eov-/)),\n",
    "    apiDoc: validatedCopy(contract.spec),\n",
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
