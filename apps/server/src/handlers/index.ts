/** The handler table, one entry per operationId, and the middleware that runs it. */
import type { OperationId } from "@animal-store/api-types";
import type { NextFunction, Request, Response } from "express";
import type { Caller } from "../auth.js";
import type { SpecOperation } from "../spec.js";
import type { Store } from "../store/index.js";
import { createPetHandler, getPetHandler, listPetsHandler } from "./pets.js";
import { type ResponseSerializers, serializerKey } from "./serializers.js";
import type { HandlerRequest, HandlerResult, Handlers } from "./types.js";

export { compileResponseSerializers, type ResponseSerializers } from "./serializers.js";
export type {
  DocumentedStatus,
  Handler,
  HandlerRequest,
  HandlerResult,
  Handlers,
  Reply,
} from "./types.js";

/** The server's handlers; `satisfies Handlers` makes a missing one a type error. */
export function createHandlers(store: Store, options: { defaultListLimit: number }): Handlers {
  return {
    listPets: listPetsHandler(store, options.defaultListLimit),
    createPet: createPetHandler(store),
    getPet: getPetHandler(store),
  } satisfies Handlers;
}

type AnyHandler = (request: HandlerRequest<OperationId>) => Promise<HandlerResult<OperationId>>;

interface PlainResult {
  status: number;
  body: unknown;
  headers?: Record<string, string> | undefined;
}

/** The runtime side of `reply`: the types did the checking. */
const reply = ((status: number, body: unknown, headers?: Record<string, string>): PlainResult => ({
  status,
  body,
  headers,
})) as unknown as HandlerRequest<OperationId>["reply"];

interface ValidatedRequest {
  openapi?: { pathParams?: Record<string, unknown> };
}

/**
 * Middleware (after the validator): calls the operation's handler and sends its result. With
 * `serializers` (responses not validated), a documented answer is written straight from its
 * compiled serializer; otherwise through res.json, where the response validator checks it.
 */
export function runHandlers(handlers: Handlers, serializers?: ResponseSerializers) {
  return async function runHandlersMiddleware(
    req: Request,
    res: Response,
    next: NextFunction,
  ): Promise<void> {
    const operation = res.locals.operation as SpecOperation;
    const caller = res.locals.caller as Caller;
    const handler = handlers[operation.operationId] as unknown as AnyHandler | undefined;
    if (!handler || caller.kind !== "key") {
      next(new Error(`no handler or no key for ${operation.operationId}`));
      return;
    }
    const result = (await handler({
      query: req.query as never,
      // The validator coerced path parameters to their schema types here (req.params holds strings).
      params: ((req as ValidatedRequest).openapi?.pathParams ?? {}) as never,
      body: req.body as never,
      apiKey: caller.key,
      requestId: String(res.locals.requestId),
      reply,
    })) as unknown as PlainResult;
    const serialize = serializers?.get(serializerKey(operation.operationId, result.status));
    if (serialize !== undefined) {
      const text = serialize(result.body);
      res.statusCode = result.status;
      if (result.headers) res.set(result.headers);
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.setHeader("Content-Length", Buffer.byteLength(text));
      res.end(text);
      return;
    }
    res.status(result.status);
    if (result.headers) res.set(result.headers);
    // Set before res.json so the response validator matches it instead of the Accept header.
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.json(result.body);
  };
}
