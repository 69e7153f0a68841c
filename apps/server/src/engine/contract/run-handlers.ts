/**
 * The last step of every request: calls the operation's handler and sends its result. With
 * compiled serializers (responses not validated), a documented answer is written straight from
 * its serializer; otherwise through res.json, where the response validator checks the body and
 * the conformance check (response-conformance.ts) its status and required headers first.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { CompiledOperation } from "./contract.js";
import type { ResponseConformance } from "./response-conformance.js";
import { type ResponseSerializers, serializerKey } from "./serializers.js";

/** A handler as the engine calls it; the API's typed handlers are these at run time. */
export type AnyHandler = (request: {
  query: unknown;
  params: unknown;
  body: unknown;
  caller: unknown;
  apiKey: unknown;
  requestId: string;
  reply: unknown;
}) => Promise<unknown>;

interface PlainResult {
  status: number;
  body: unknown;
  headers?: Record<string, string> | undefined;
}

/**
 * Sets a handler's headers. A `Link` already set (a deprecated operation's successor link) is
 * kept and the handler's links are added to it: RFC 8288 lets one field carry several links, and
 * a page of a deprecated list needs both its `next` and its `successor-version`.
 */
function setHandlerHeaders(res: Response, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    const before = name.toLowerCase() === "link" ? res.getHeader(name) : undefined;
    res.setHeader(name, before === undefined ? value : `${String(before)}, ${value}`);
  }
}

/** The runtime side of `reply`: the types did the checking. */
const reply = (status: number, body: unknown, headers?: Record<string, string>): PlainResult => ({
  status,
  body,
  headers,
});

interface ValidatedRequest {
  openapi?: { pathParams?: Record<string, unknown> };
}

/**
 * Says, once at start, which operations of the contract have no handler: they answer 500 until
 * one is added (the typed handler table makes that a compile error; a new spec with an old build
 * is how it happens at run time).
 */
export function reportMissingHandlers(
  operations: CompiledOperation[],
  handlers: Readonly<Record<string, unknown>>,
  logger: Logger,
): string[] {
  const missing = operations.filter((op) => typeof handlers[op.operationId] !== "function");
  for (const op of missing) {
    logger.error(
      { operationId: op.operationId },
      `no handler for ${op.operationId} (${op.method} ${op.path}): it answers 500 until one is added`,
    );
  }
  return missing.map((op) => op.operationId);
}

/** Middleware (after validation): runs the handler of the resolved operation and answers. */
export function runHandlers(
  handlers: Readonly<Record<string, unknown>>,
  options: {
    serializers?: ResponseSerializers | undefined;
    conformance?: ResponseConformance | undefined;
  },
): RequestHandler {
  const { serializers, conformance } = options;
  return async function runHandlersMiddleware(
    req: Request,
    res: Response,
    next: NextFunction,
  ): Promise<void> {
    const operation = res.locals.operation as CompiledOperation;
    const handler = handlers[operation.operationId] as AnyHandler | undefined;
    if (typeof handler !== "function") {
      next(new Error(`no handler for ${operation.operationId}: add it to the handler table`));
      return;
    }
    const caller = res.locals.caller;
    const result = (await handler({
      query: req.query,
      // The validator coerced path parameters to their schema types here (req.params holds strings).
      params: (req as ValidatedRequest).openapi?.pathParams ?? {},
      body: req.body,
      caller,
      apiKey: caller?.kind === "key" ? caller.key : undefined,
      requestId: res.locals.requestId,
      reply,
    })) as PlainResult;
    const serialize = serializers?.get(serializerKey(operation.operationId, result.status));
    if (serialize !== undefined) {
      const text = serialize(result.body);
      res.statusCode = result.status;
      if (result.headers) setHandlerHeaders(res, result.headers);
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.setHeader("Content-Length", Buffer.byteLength(text));
      res.end(text);
      return;
    }
    res.status(result.status);
    if (result.headers) setHandlerHeaders(res, result.headers);
    // Set before res.json so the response validator matches it instead of the Accept header.
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    const violations = conformance?.violations(operation, result.status, (name) =>
      res.getHeader(name),
    );
    if (violations?.length) {
      next(new ResponseContractError(violations));
      return;
    }
    res.json(result.body);
  };
}

/** An answer that breaks the contract (development and tests): logged, answered with 500. */
export class ResponseContractError extends Error {
  constructor(readonly violations: string[]) {
    super(`the response breaks the contract: ${violations.join("; ")}`);
    this.name = "ResponseContractError";
  }
}
