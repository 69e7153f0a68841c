/**
 * Handler types derived from the generated `operations`: each handler gets its operation's
 * query, path parameters and body, and answers through `reply(status, body)`, which only accepts
 * the operation's documented statuses with the body documented for each (object literals are
 * checked exactly, so an extra field is an error too). Results are branded, so a hand-made
 * `{ status, body }` cannot bypass `reply`. A missing handler is a type error in `Handlers`.
 */
import type { OperationId, operations } from "@animal-store/api-types";
import type { ApiKeyRecord } from "../auth.js";

type Responses<Op extends OperationId> = operations[Op]["responses"];
type JsonBody<R> = R extends { content: { "application/json": infer Body } } ? Body : never;
type Parameters<Op extends OperationId> = operations[Op]["parameters"];
type Part<P, K extends string> = K extends keyof P ? NonNullable<P[K]> : never;
type NeverToEmpty<T> = [T] extends [never] ? Record<never, never> : T;

/** The statuses an operation documents. */
export type DocumentedStatus<Op extends OperationId> = keyof Responses<Op> & number;

declare const replied: unique symbol;

/** One documented outcome of an operation: its status, the body for it, optional headers. */
export type HandlerResult<Op extends OperationId> = {
  [Status in DocumentedStatus<Op>]: {
    status: Status;
    body: JsonBody<Responses<Op>[Status]>;
    headers?: Record<string, string>;
  };
}[DocumentedStatus<Op>] & { readonly [replied]: Op };

/** Builds a result; only documented statuses, only their documented bodies. */
export type Reply<Op extends OperationId> = <Status extends DocumentedStatus<Op>>(
  status: Status,
  body: JsonBody<Responses<Op>[Status]>,
  headers?: Record<string, string>,
) => HandlerResult<Op>;

/** The request as a handler sees it, after validation. */
export interface HandlerRequest<Op extends OperationId> {
  query: NeverToEmpty<Part<Parameters<Op>, "query">>;
  params: NeverToEmpty<Part<Parameters<Op>, "path">>;
  body: operations[Op] extends { requestBody: { content: { "application/json": infer Body } } }
    ? Body
    : undefined;
  /** The key that authenticated the request. */
  apiKey: ApiKeyRecord;
  requestId: string;
  reply: Reply<Op>;
}

/** The handler of one operation. */
export type Handler<Op extends OperationId> = (
  request: HandlerRequest<Op>,
) => Promise<HandlerResult<Op>>;

/** One handler per operation of the contract. */
export type Handlers = { [Op in OperationId]: Handler<Op> };
