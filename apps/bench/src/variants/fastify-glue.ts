/**
 * Variant (f): Fastify 5 + fastify-openapi-glue over the same work as the shipped server, the stack
 * a team choosing "the fastest framework" would write: routes, Ajv request validation and
 * fast-json-stringify answers compiled by Fastify from the bundled spec (glue), the server's own
 * store and handlers, the engine's hashed-key cache and limiter with its rate-limit headers
 * (X-RateLimit-*, RateLimit-Policy, RateLimit), the same security headers + no-store,
 * X-Request-Id, and one pino access line per request through the engine's logger (same fields, same asynchronous batches). It skips checks the shipped server
 * makes that no stack written this way would (variants.test.ts pins what must match).
 */
import { randomUUID } from "node:crypto";
import { loadBundledSpec } from "@animal-store/openapi";
import {
  type ApiKeyRecord,
  compileContract,
  createKeyLookup,
  createLogger,
  createRateLimiter,
  issueApiKey,
  JsonText,
  limitsFor,
  rateLimitHeaderEntries,
  staticResponseHeaders,
} from "@animal-store/openapi-engine";
import { configFrom, createHandlers, openStore } from "@animal-store/server";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import openapiGlue from "fastify-openapi-glue";
import { benchKeyOptions } from "./shipped.js";

/** An incoming X-Request-Id kept as it is (the shipped server's rule); otherwise a UUID. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The token of an `Authorization: Bearer` header (RFC 6750's b64token). */
const BEARER_TOKEN = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
// Fastify's own errors (and glue's wrapper around a failed security handler) by status.
const CODE_OF_STATUS: Record<number, string> = {
  401: "unauthorized",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
};

/** An answer in the spec's Error shape, thrown from a hook or handler. */
class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type HandlerCall = (request: Record<string, unknown>) => Promise<{
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}>;

interface Context {
  requestId: string;
  startedAt: number;
  key: ApiKeyRecord | undefined;
}

const contexts = new WeakMap<FastifyRequest, Context>();

/** Starts the Fastify variant on `env` (DATABASE_URL, PORT, HOST as the server reads them). */
export async function startFastifyGlue(env: Record<string, string | undefined>) {
  const config = configFrom(env);
  const loaded = loadBundledSpec();
  const contract = compileContract(loaded);
  const store = await openStore(config.database);
  const logger = createLogger(config, "animal-store");
  const accessLog = logger.child({}, { redact: [] });
  const limiter = await createRateLimiter(config.rateLimit, contract.rateLimit.ban, logger);
  const lookup = createKeyLookup(store, config.apiKeyCacheTtlMs);
  const limits = limitsFor(contract.rateLimit);
  const handlers = createHandlers(store) as unknown as Record<string, HandlerCall>;
  const headers = Object.fromEntries(staticResponseHeaders());

  const app = Fastify({
    logger: false,
    // The spec's bodies are at most this big; Ajv as the shipped server runs it: no coercion of
    // bodies beyond Fastify's defaults, and unknown properties rejected, never stripped.
    bodyLimit: contract.bodyLimitBytes,
    ajv: { customOptions: { removeAdditional: false } },
  });

  app.addHook("onRequest", (request, reply, done) => {
    const incoming = request.headers["x-request-id"];
    const requestId =
      typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    contexts.set(request, { requestId, startedAt: performance.now(), key: undefined });
    reply.headers(headers);
    reply.header("X-Request-Id", requestId);
    done();
  });
  app.addHook("onResponse", (request, reply, done) => {
    const context = contexts.get(request);
    accessLog.info(
      {
        reqId: context?.requestId,
        method: request.method,
        path: request.url.split("?", 1)[0],
        status: reply.statusCode,
        ms: Math.round((performance.now() - (context?.startedAt ?? 0)) * 10) / 10,
        keyId: context?.key?.id,
      },
      "request",
    );
    done();
  });
  app.setErrorHandler((error: Error & { statusCode?: number; validation?: unknown }, _r, reply) => {
    const status = error.statusCode ?? 500;
    const code =
      error instanceof HttpError
        ? error.code
        : error.validation
          ? "validation_failed"
          : (CODE_OF_STATUS[status] ?? (status < 500 ? "validation_failed" : "internal_error"));
    reply.code(status).send({ code, message: status < 500 ? error.message : code, status });
  });

  /**
   * The shipped server's credential step: the key is looked up (cached by hash) and the call
   * counted before the credential is required, so a 401 carries the rate-limit headers too.
   */
  async function bearerAuth(request: FastifyRequest, reply: FastifyReply) {
    const token = BEARER_TOKEN.exec(request.headers.authorization ?? "")?.[1];
    const found = token === undefined ? null : lookup(token);
    const key = found instanceof Promise ? await found : found;
    const context = contexts.get(request);
    if (key && context) context.key = key;
    const failure = token ? ("invalid" as const) : ("missing" as const);
    const caller = key
      ? { kind: "key" as const, key }
      : { kind: "anonymous" as const, address: request.ip, failure };
    const subject = key ? `key:${key.id}` : `addr:${request.ip}`;
    const decided = limiter.consume(subject, limits(caller), Date.now(), {
      banEligible: key !== null,
    });
    const decision = decided instanceof Promise ? await decided : decided;
    // X-RateLimit-*, RateLimit-Policy and RateLimit, as the shipped server writes them.
    for (const [name, value] of rateLimitHeaderEntries(decision)) reply.header(name, String(value));
    if (!decision.allowed) {
      reply.header("Retry-After", String(decision.retryAfter ?? 0));
      throw new HttpError(429, "rate_limited", "Too many requests.");
    }
    if (!key) throw new HttpError(401, "unauthorized", "A valid API key is required.");
  }

  const serviceHandlers: Record<string, (req: FastifyRequest, reply: FastifyReply) => unknown> = {};
  for (const [operationId, handler] of Object.entries(handlers)) {
    serviceHandlers[operationId] = async (request, reply) => {
      const context = contexts.get(request);
      const result = await handler({
        query: request.query,
        params: request.params,
        body: request.body,
        caller: context?.key ? { kind: "key", key: context.key } : undefined,
        requestId: context?.requestId,
        reply: (status: number, body: unknown, extra?: Record<string, string>) => ({
          status,
          body,
          headers: extra,
        }),
      });
      reply.code(result.status);
      if (result.headers) reply.headers(result.headers);
      // A page the store wrote as JSON text: Fastify sends a string with a JSON content type as
      // it is, without its serializer, as the server does.
      if (result.body instanceof JsonText) {
        reply.type("application/json; charset=utf-8");
        return JsonText.textOf(result.body);
      }
      return result.body;
    };
  }

  await app.register(openapiGlue, {
    specification: loaded.spec as unknown as object,
    serviceHandlers,
    securityHandlers: { bearerAuth },
    prefix: contract.basePath,
  });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  return {
    url: `http://${config.host}:${port}`,
    key: (await issueApiKey(store, contract.rateLimit, benchKeyOptions(loaded.spec))).key,
    close: async () => {
      await app.close();
      await Promise.allSettled([store.close(), limiter.close()]);
      logger.flush();
    },
  };
}
