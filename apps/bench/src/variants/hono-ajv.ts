/**
 * Variant (h): Hono 4 on @hono/node-server, with Ajv validators and fast-json-stringify answers
 * compiled from the bundled spec: the stack a team choosing Hono would write, since Hono has no
 * OpenAPI glue that reads an existing spec. Routes come from the spec's operations; query and path
 * parameters are validated and coerced by Ajv (defaults applied), bodies by Ajv after a check of
 * their declared length (Hono's `bodyLimit` for one sent without); answers are written by the
 * serializer compiled for their documented response. The rest is the shipped server's work as the
 * Fastify variant does it: the server's own store and handlers, the engine's hashed-key cache,
 * per-key counter with X-RateLimit-*, the same security headers + no-store, X-Request-Id, and one
 * pino access line per request through the engine's logger. What it still skips is listed in
 * apps/bench/README.md.
 */
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  deref,
  documentedResponses,
  type JsonObject,
  responseForStatus,
  specOperations,
} from "@animal-store/openapi";
import { type ApiKeyRecord, JsonText, staticResponseHeaders } from "@animal-store/openapi-engine";
import { serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import build from "fast-json-stringify";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HttpError, openSharedWork, SANE_REQUEST_ID } from "./comparison-support.js";

type Env = { Variables: { requestId: string; startedAt: number; key: ApiKeyRecord | undefined } };

/** Starts the Hono variant on `env` (DATABASE_URL, PORT, HOST as the server reads them). */
export async function startHonoAjv(env: Record<string, string | undefined>) {
  const shared = await openSharedWork(env);
  const { config, contract, accessLog, checkBearer, handlers } = shared;
  const spec = shared.loaded.spec;
  const headers = [...staticResponseHeaders()];

  // Fastify's Ajv settings for parameters (coerced to their types, defaults applied); bodies are
  // validated as sent, unknown properties rejected by the schemas themselves.
  const components = { components: spec.components };
  const ajv = new Ajv({ coerceTypes: "array", useDefaults: true, strict: false, allErrors: false });
  addFormats.default(ajv);
  const bodies = new Ajv({ strict: false });
  addFormats.default(bodies);

  const app = new Hono<Env>();

  app.use(async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId =
      incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set("requestId", requestId);
    c.set("startedAt", performance.now());
    for (const [name, value] of headers) c.header(name, value);
    c.header("X-Request-Id", requestId);
    await next();
    accessLog.info(
      {
        reqId: requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - c.get("startedAt")) * 10) / 10,
        keyId: c.get("key")?.id,
      },
      "request",
    );
  });

  app.onError((error, c) => {
    const known = error instanceof HttpError;
    // hono/body-limit's and a malformed body's own errors carry their status.
    const status = known ? error.statusCode : ((error as { status?: number }).status ?? 500);
    const code = known ? error.code : status === 413 ? "payload_too_large" : "internal_error";
    // Written as the handlers' answers are, with the charset the other variants send.
    c.header("Content-Type", "application/json; charset=utf-8");
    const message = status < 500 ? error.message : code;
    return c.body(JSON.stringify({ code, message, status }), status as 400);
  });

  async function authorize(c: Context<Env>): Promise<void> {
    await checkBearer({
      authorization: c.req.header("authorization"),
      address: () => getConnInfo(c).remote.address ?? "",
      setHeader: (name, value) => c.header(name, value),
      onKey: (key) => c.set("key", key),
    });
  }

  /** An object schema over one location's parameters, as Fastify builds its querystring schema. */
  function parameterValidator(parameters: JsonObject[], where: string): ValidateFunction {
    const own = parameters.filter((p) => p.in === where);
    return ajv.compile({
      type: "object",
      properties: Object.fromEntries(own.map((p) => [p.name, deref(spec, p.schema)])),
      required: own.filter((p) => p.required === true).map((p) => p.name),
      ...components,
    });
  }

  const fail = (validate: ValidateFunction, where: string): never => {
    const first = validate.errors?.[0];
    throw new HttpError(
      400,
      "validation_failed",
      `${where}${first?.instancePath ?? ""} ${first?.message ?? "is invalid"}`,
    );
  };

  for (const operation of specOperations(spec)) {
    const handler = handlers[operation.operationId];
    if (handler === undefined) continue;
    const validateQuery = parameterValidator(operation.parameters, "query");
    const validatePath = parameterValidator(operation.parameters, "path");
    const bodySchema = operation.requestBody
      ? deref<JsonObject | undefined>(
          spec,
          (operation.requestBody.content as JsonObject)?.["application/json"],
        )
      : undefined;
    const validateBody = bodySchema?.schema
      ? bodies.compile({ ...deref<JsonObject>(spec, bodySchema.schema), ...components })
      : undefined;
    const responses = documentedResponses(spec, operation);
    const serializers = new Map<number, (body: unknown) => string>();
    const serializerFor = (status: number) => {
      let serialize = serializers.get(status);
      if (serialize === undefined) {
        const schema = responseForStatus(responses, status)?.content["application/json"]?.schema;
        serialize = schema
          ? build({ ...deref<JsonObject>(spec, schema), ...components } as never)
          : (body: unknown) => JSON.stringify(body) ?? "";
        serializers.set(status, serialize);
      }
      return serialize;
    };
    const route = `${contract.basePath}${operation.path.replace(/\{([^}]+)\}/g, ":$1")}`;
    const limited = bodyLimit({
      maxSize: contract.bodyLimitBytes,
      onError: () => {
        throw new HttpError(413, "payload_too_large", "The request body is too large.");
      },
    });
    // hono/body-limit reads `c.req.raw.body`, which makes @hono/node-server build the whole web
    // Request and read the body through a web stream; a body that declares its length within the
    // limit is read by node-server's own fast path instead, as a team tuning Hono would do.
    const limit = async (c: Context<Env>, next: () => Promise<void>) => {
      const declared = c.req.header("content-length");
      if (declared === undefined || c.req.header("transfer-encoding") !== undefined) {
        return limited(c, next);
      }
      if (!/^\d+$/.test(declared) || Number(declared) > contract.bodyLimitBytes) {
        throw new HttpError(413, "payload_too_large", "The request body is too large.");
      }
      await next();
    };
    const answer = async (c: Context<Env>) => {
      await authorize(c);
      const query: Record<string, unknown> = c.req.query();
      if (!validateQuery(query)) fail(validateQuery, "query");
      const params: Record<string, unknown> = c.req.param();
      if (!validatePath(params)) fail(validatePath, "path");
      let body: unknown;
      if (validateBody) {
        if (!/^application\/json\b/i.test(c.req.header("content-type") ?? "")) {
          throw new HttpError(415, "unsupported_media_type", "Send the body as application/json.");
        }
        try {
          body = JSON.parse(await c.req.text());
        } catch {
          throw new HttpError(400, "validation_failed", "The body is not JSON.");
        }
        if (!validateBody(body)) fail(validateBody, "body");
      }
      const key = c.get("key");
      const result = await handler({
        query,
        params,
        body,
        caller: key ? { kind: "key", key } : undefined,
        requestId: c.get("requestId"),
        reply: (status: number, answer: unknown, extra?: Record<string, string>) => ({
          status,
          body: answer,
          headers: extra,
        }),
      });
      if (result.headers)
        for (const [name, value] of Object.entries(result.headers)) c.header(name, value);
      c.header("Content-Type", "application/json; charset=utf-8");
      // A page the store wrote as JSON text is sent as it is, as the server does.
      const text =
        result.body instanceof JsonText
          ? JsonText.textOf(result.body)
          : serializerFor(result.status)(result.body);
      return c.body(text, result.status as 200);
    };
    if (validateBody) app.on(operation.method, route, limit, answer);
    else app.on(operation.method, route, answer);
  }

  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
      resolve(started as Server),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${config.host}:${port}`,
    key: await shared.issueKey(),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await shared.close();
    },
  };
}
