/**
 * Variant (f): Fastify 5 + fastify-openapi-glue over the same work as the shipped server, the stack
 * a team choosing "the fastest framework" would write: routes, Ajv request validation and
 * fast-json-stringify answers compiled by Fastify from the bundled spec (glue), the server's own
 * store and handlers, the engine's hashed-key cache, per-key counter with X-RateLimit-*, the same
 * security headers + no-store, X-Request-Id, and one pino access line per request through the
 * engine's logger (same fields, same asynchronous 4 KiB batches). What it still skips is listed
 * in apps/bench/README.md.
 */
import { randomUUID } from "node:crypto";
import { type ApiKeyRecord, JsonText, staticResponseHeaders } from "@animal-store/openapi-engine";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import openapiGlue from "fastify-openapi-glue";
import { HttpError, openSharedWork, SANE_REQUEST_ID } from "./comparison-support.js";

// Fastify's own errors (and glue's wrapper around a failed security handler) by status.
const CODE_OF_STATUS: Record<number, string> = {
  401: "unauthorized",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
};

interface Context {
  requestId: string;
  startedAt: number;
  key: ApiKeyRecord | undefined;
}

const contexts = new WeakMap<FastifyRequest, Context>();

/** Starts the Fastify variant on `env` (DATABASE_URL, PORT, HOST as the server reads them). */
export async function startFastifyGlue(env: Record<string, string | undefined>) {
  const shared = await openSharedWork(env);
  const { config, loaded, contract, accessLog, checkBearer, handlers } = shared;
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

  const securityHandlers = {
    async bearerAuth(request: FastifyRequest, reply: FastifyReply) {
      await checkBearer({
        authorization: request.headers.authorization,
        address: () => request.ip,
        setHeader: (name, value) => reply.header(name, value),
        onKey: (key) => {
          const context = contexts.get(request);
          if (context) context.key = key;
        },
      });
    },
  };

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
    securityHandlers,
    prefix: contract.basePath,
  });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  return {
    url: `http://${config.host}:${port}`,
    key: await shared.issueKey(),
    close: async () => {
      await app.close();
      await shared.close();
    },
  };
}
