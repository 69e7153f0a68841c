#!/usr/bin/env node
// `pnpm --filter @animal-store/client planted-faults [index ...]`: plants each fault below in the
// client's source, runs the test that guards against it, and reports whether the test caught it;
// the source is restored after each. The tests run on the source, so nothing is rebuilt. Not part
// of `pnpm test`: run it after changing a guarded behaviour or its test, and do not edit the client
// while it runs (a fault is in the working tree meanwhile).
import { fileURLToPath } from "node:url";
import { runPlantedFaults } from "@animal-store/test-support/planted-faults";

const client = fileURLToPath(new URL("..", import.meta.url));

/** [what, file (relative to packages/client), text, replacement, test file, test name filter] */
const FAULTS = [
  [
    "a 429's later X-RateLimit-Reset stretches the wait past its Retry-After",
    "src/pacer.ts",
    "if (window && window.resetServerMs - skew.offsetMs() > until) {",
    "if (window && until < 0) {",
    "test/pacing.test.ts",
    "retries after Retry-After, not after the reset",
  ],
  [
    "a retry waits past maxDelayMs for what pacing holds back",
    "src/transport.ts",
    "wait <= policy.maxDelayMs && fitsDeadline(wait)",
    "fitsDeadline(wait)",
    "test/pacing.test.ts",
    "never waits longer than maxDelayMs",
  ],
  [
    "a paced call past its deadline reads like a network timeout",
    "src/transport.ts",
    "new RateLimitError(new Date(refusal.until), context(), {",
    'refusal.kind === "deadline" ? new (class TimeoutError extends Error { kind = "deadline"; })(operationId + " timed out: deadlineMs 0 ms passed") : new RateLimitError(new Date(refusal.until), context(), {',
    "test/pacing.test.ts",
    "past deadlineMs",
  ],
  [
    "a plain call's empty error body reads as undefined, where coreFetch gives an empty text",
    "src/plain-call.ts",
    "        data = text;\n",
    "        data = text || undefined;\n",
    "test/plain-calls.test.ts",
    "every response shape",
  ],
  [
    "a plain call ignores its own query serializer (the one pages passes)",
    "src/plain-call.ts",
    "querySerializer: init.querySerializer ?? defaultQuery,",
    "querySerializer: defaultQuery,",
    "test/plain-calls.test.ts",
    "every response shape",
  ],
  [
    "a plain call with a body sends no Content-Type",
    "src/plain-call.ts",
    'body === undefined ? {} : { "content-type": "application/json" }',
    "{}",
    "test/plain-calls.test.ts",
    "every response shape",
  ],
  [
    "a plain HEAD reads a body",
    "src/plain-call.ts",
    '      method !== "HEAD" &&\n',
    "",
    "test/plain-calls.test.ts",
    "every response shape",
  ],
  [
    "the pacer reads X-RateLimit-* over the IETF RateLimit field",
    "src/rate-limit.ts",
    "return fromIetfFields(headers) ?? fromLegacyHeaders(headers);",
    "return fromLegacyHeaders(headers) ?? fromIetfFields(headers);",
    "test/pacing.test.ts",
    "RateLimit is the one read",
  ],
  [
    "RateLimit's t counted from the client's clock though the response has a Date",
    "src/rate-limit.ts",
    "new Date((date || Date.now()) + t * 1000)",
    "new Date(Date.now() + t * 1000)",
    "test/pacing.test.ts",
    "waits t seconds from Date",
  ],
  [
    "on a tie of r, the earlier reset kept (a call sent before the binding window resets)",
    "src/rate-limit.ts",
    "(r === best.remaining && t > bestT)",
    "(r === best.remaining && t < bestT)",
    "src/rate-limit.test.ts",
    "on a tie",
  ],
];

process.exitCode = runPlantedFaults(FAULTS, client, process.argv.slice(2));
