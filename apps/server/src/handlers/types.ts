/**
 * Handler types derived from the generated `operations`: each handler gets its operation's
 * query, path parameters and body, and must return one of its documented statuses with the
 * body documented for that status. A missing handler, a wrong body or an undocumented status is
 * a type error.
 */
import type { OperationId, operations } from "@animal-store/api-types";
import type { ApiKeyRecord } from "../auth.js";

type Responses<Op extends OperationId> = operations[Op]["responses"];
type JsonBody<R> = R extends { content: { "application/json": infer Body } } ? Body : never;
type Parameters<Op extends OperationId> = operations[Op]["parameters"];
type Part<P, K extends string> = P extends Record<K, infer V> ? NonNullable<V> : never;
type NeverToEmpty<T> = [T] extends [never] ? Record<string, never> : T;

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
}

/** One documented outcome of an operation: its status, the body for it, optional headers. */
export type HandlerResult<Op extends OperationId> = {
  [Status in keyof Responses<Op>]: {
    status: Status;
    body: JsonBody<Responses<Op>[Status]>;
    headers?: Record<string, string>;
  };
}[keyof Responses<Op>];

/** The handler of one operation. */
export type Handler<Op extends OperationId> = (
  request: HandlerRequest<Op>,
) => Promise<HandlerResult<Op>> | HandlerResult<Op>;

/** One handler per operation of the contract. */
export type Handlers = { [Op in OperationId]: Handler<Op> };
