/**
 * Warm-up, before the real port opens: one request per operation of the contract, built from its
 * examples where it gives them and synthesized from its schemas where it does not
 * (synthesize.ts), through an app of its own on a private loopback port, so that no client pays for what
 * V8 compiles on first use. That app shares the real one's compiled operations (validators and
 * serializers) and is built by the same factory, but runs on a scratch store of the application,
 * an in-process limiter and a one-off key, and logs nothing: the real app has no warm-up check on
 * its request path, and nothing warm-up does reaches the real store or the shared counters.
 */
import { randomBytes } from "node:crypto";
import { createServer, type RequestListener, type ServerOptions } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { assembleApiApp } from "../api-app.js";
import type { Application, EngineStore } from "../application.js";
import type { ApiKeyRecord } from "../auth/security.js";
import { type CompiledOperation, withHandlers } from "../compiled-operation.js";
import type { AppConfig } from "../config.js";
import type { Contract } from "../contract/contract.js";
import { expressMessageClasses } from "../express-messages.js";
import { createMemoryRateLimiter } from "../rate-limit/index.js";
import { type SynthesizedRequest, synthesizeRequest } from "./synthesize.js";

/** What warm-up builds its app from: the real app's contract, operations, config and clock. */
export interface WarmUpInput {
  contract: Contract;
  /** Compiled, without handlers: warm-up binds its own, over its scratch store. */
  operations: CompiledOperation[];
  config: AppConfig;
  clock: () => number;
}

/** A key record valid only in the warm-up's app; never written to any store. */
function warmUpRecord(contract: Contract): ApiKeyRecord {
  return {
    id: "warm-up",
    name: "warm-up",
    plan: contract.rateLimit.planNames[0] as string,
    // Limits it cannot reach: warm-up sends one request per operation.
    perMinute: Number.MAX_SAFE_INTEGER,
    perDay: Number.MAX_SAFE_INTEGER,
    createdAt: new Date().toISOString(),
    revokedAt: null,
  };
}

/** Warms up `application`'s code paths on an app of its own; throws when an operation answers 500. */
export async function warmUp<S extends EngineStore>(
  application: Application<S>,
  input: WarmUpInput,
): Promise<void> {
  const { contract } = input;
  const store = await application.openScratchStore();
  const limiter = createMemoryRateLimiter({ ban: contract.rateLimit.ban });
  try {
    const logger = pino({ level: "silent" });
    const key = `warmup_${randomBytes(24).toString("base64url")}`;
    const record = warmUpRecord(contract);
    const operations = withHandlers(
      input.operations,
      application.handlers(store, contract),
      logger,
    );
    const app = assembleApiApp({
      contract,
      operations,
      keyStore: store,
      limiter,
      clock: input.clock,
      config: input.config,
      logger,
      keyLookup: (presented) => (presented === key ? record : null),
      verifiers: application.verifiers?.(store),
    });
    // An operation without a handler (reported at start) would only answer 500.
    const requests = operations
      .filter((op) => op.handler !== undefined)
      .map((op) => {
        const request = synthesizeRequest(contract.spec, op);
        return { ...request, path: `${contract.basePath}${request.path}` };
      });
    // Requests and responses built as the real server builds them.
    await sendRequests(app, requests, key, expressMessageClasses(app.express));
  } finally {
    await Promise.allSettled([limiter.close(), store.close()]);
  }
}

/** Whether `text` is the engine's `not_implemented` error body, in the JSON or problem+json shape. */
function isNotImplemented(text: string): boolean {
  try {
    return (JSON.parse(text) as { code?: unknown } | null)?.code === "not_implemented";
  } catch {
    return false;
  }
}

/** Sends `requests` to `app` on a loopback port with the given bearer key; throws on a 500 answer. */
export async function sendRequests(
  app: RequestListener,
  requests: ReadonlyArray<Omit<SynthesizedRequest, "bodyValue">>,
  bearerKey: string,
  options: ServerOptions = {},
): Promise<void> {
  const server = createServer(options, app);
  // Exclusive: in a cluster worker (the dev loop's server) a shared handle would be the
  // primary's, and another worker warming up at once could answer these requests.
  await new Promise<void>((resolve) =>
    server.listen({ port: 0, host: "127.0.0.1", exclusive: true }, resolve),
  );
  try {
    const { port } = server.address() as AddressInfo;
    for (const request of requests) {
      const response = await fetch(`http://127.0.0.1:${port}${request.path}`, {
        method: request.method,
        headers: { ...request.headers, authorization: `Bearer ${bearerKey}` },
        // A copy as a plain Uint8Array: fetch's body types (DOM's or undici's, as the
        // application's lib setting picks) all take one, not every one takes a Buffer.
        body: typeof request.body === "object" ? new Uint8Array(request.body) : request.body,
      });
      const text = await response.text();
      // A server that cannot answer its own warm-up (validators that failed to build, an
      // operation whose handler throws) must not open its port. 503 is not such a failure: a
      // store that is down at start is answered with 503 until it is back (reliability-tests).
      // Nor is the engine's own 500 `not_implemented` (in any error shape: its `code` member):
      // a stub the application has not written yet (`notImplemented`, the scaffold's stubs) is
      // how a contract ahead of the code is served.
      if (response.status === 500 && !isNotImplemented(text)) {
        throw new Error(
          `warm-up ${request.operationId} (${request.method} ${request.path}) answered 500: ${text.slice(0, 300)}`,
        );
      }
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
