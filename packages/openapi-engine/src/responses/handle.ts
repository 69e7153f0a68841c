/**
 * The last step of an operation's lifecycle: calls its handler and writes the answer. Without
 * response validation (production) the body is written by the serializer compiled for its
 * documented response; with it, the answer's status, required headers and body are checked
 * against the contract first (a violation is a bug: logged, answered 500) and the body is written
 * with JSON.stringify. Either way the bytes on the wire are the same (tested). A body the handler
 * gives as JSON text (`JsonText`) is written as it is, after the same checks when they run.
 */
import type { Response } from "express";
import type { Caller, CallerLocals } from "../auth/credentials.js";
import { JsonText } from "../contract/json-text.js";
import { engineErrors } from "../errors.js";
import { setEngineHeader } from "../express-messages.js";
import { step } from "../lifecycle/lifecycle.js";
import type { RequestLocals } from "../request-context/request-context.js";
import type { CompiledAnswers } from "./answers.js";

/** A handler as the engine calls it; the application's typed handlers are these at run time. */
export type AnyHandler = (request: {
  query: unknown;
  params: unknown;
  body: unknown;
  caller: Caller;
  requestId: string;
  reply: typeof reply;
}) => Promise<unknown>;

/** What a handler's `reply` builds. */
interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string> | undefined;
}

/** The runtime side of `reply`: the types did the checking. */
const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body,
  headers,
});

/** What the handle step reads of the operation. */
export interface HandledOperation {
  operationId: string;
  method: string;
  path: string;
  answers: CompiledAnswers;
  /** Undefined when the application has none (reported at start): a 500 `not_implemented`. */
  handler: AnyHandler | undefined;
}

/** An answer that breaks the contract (development and tests): logged, answered with 500. */
export class ResponseContractError extends Error {
  constructor(readonly violations: string[]) {
    super(`the response breaks the contract: ${violations.join("; ")}`);
    this.name = "ResponseContractError";
  }
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

/** Writes `text` as the JSON answer with `status` and the handler's own headers. */
function send(res: Response, { status, headers }: Reply, text: string, headersSet: boolean): void {
  res.statusCode = status;
  if (headers && !headersSet) setHandlerHeaders(res, headers);
  setEngineHeader(res, "content-type", "Content-Type", "application/json; charset=utf-8");
  setEngineHeader(res, "content-length", "Content-Length", Buffer.byteLength(text));
  // The head written first, as `end` would write it: `end` given a string before the head
  // measures the string's bytes again, which on a page of 100 items is not free.
  res.writeHead(status);
  res.end(text);
}

/** What a handler's JSON text parses to, or the violation of text that is not JSON at all. */
function parsed(text: string): { value: unknown } | { violation: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { violation: `the body's JSON text is not JSON: ${(err as Error).message}` };
  }
}

/** Runs the operation's handler and answers; `checked` when responses are validated. */
export function handle(options: { checked: boolean }) {
  const { checked } = options;
  return step<{ operation: HandledOperation } & CallerLocals & RequestLocals>(
    async function handle(req, res, next) {
      const { operation, caller, requestId } = res.locals;
      const handler = operation.handler;
      if (handler === undefined) {
        // Reported once at start (compiled-operation.ts), so not logged again on every call.
        next(engineErrors.notImplemented(operation.operationId));
        return;
      }
      const result = (await handler({
        query: req.query,
        // Decoded, coerced to their schema types and defaulted by the validation step.
        params: req.params,
        body: req.body,
        caller,
        requestId,
        reply,
      })) as Reply;
      const body = result.body;
      if (!checked) {
        if (body instanceof JsonText) {
          send(res, result, JsonText.textOf(body), false);
          return;
        }
        const serialize = operation.answers.forStatus(result.status)?.serialize;
        const text = serialize ? serialize(body) : (JSON.stringify(body) ?? "");
        send(res, result, text, false);
        return;
      }
      if (result.headers) setHandlerHeaders(res, result.headers);
      // JSON text is checked as the value it parses to, and written as it is.
      const text = body instanceof JsonText ? JsonText.textOf(body) : undefined;
      const reading = text === undefined ? { value: body } : parsed(text);
      if ("violation" in reading) {
        next(new ResponseContractError([reading.violation]));
        return;
      }
      const violations = operation.answers.violations(
        result.status,
        (name) => res.getHeader(name),
        reading.value,
      );
      if (violations.length > 0) {
        next(new ResponseContractError(violations));
        return;
      }
      send(res, result, text ?? JSON.stringify(body) ?? "", true);
    },
  );
}
