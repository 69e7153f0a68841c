/**
 * Handler types derived from an API's generated `operations` (openapi-typescript): each handler
 * gets its operation's query, path parameters and body, and answers through `reply(status,
 * body)`, which only accepts the operation's documented statuses with the body documented for
 * each (object literals are checked exactly, so an extra field is an error too). Results are
 * branded, so a hand-made `{ status, body }` cannot bypass `reply`. A missing handler is a type
 * error in `HandlerTable`. A parameter the contract gives a default (`Defaults`, generated from
 * the spec as openapi-typescript keeps such parameters optional) is always present: validation
 * fills it in, once.
 */
import type { Readable } from "node:stream";
import type { Caller } from "../auth/security.js";
import type { JsonText } from "./handle.js";

/** The shape openapi-typescript gives every operation. */
export interface OperationShape {
  parameters: unknown;
  responses: unknown;
}

/** An API's generated `operations` interface (an interface: no index signature to demand). */
export type OperationsShape<Ops = Record<string, OperationShape>> = {
  [Op in keyof Ops]: OperationShape;
};

type Responses<Ops extends OperationsShape<Ops>, Op extends keyof Ops> = Ops[Op]["responses"];
type JsonBody<R> = R extends { content: { "application/json": infer Body } } ? Body : never;
/** The content a response declares, media type to body (none for one declared without content). */
type ContentOf<R> = R extends { content: infer C } ? C : never;
/** The body of one declared type other than `application/json`: a `+json` value, else raw. */
type OtherBody<C, K extends keyof C> = K extends `${string}+json`
  ? C[K]
  : string | Uint8Array | Readable;
/**
 * The body a handler answers a response with: nothing for one declared without content; the JSON
 * value (or its text) for `application/json`; for any other declared type its value (`+json`) or
 * bytes, text or a stream.
 */
type AnswerBody<R> = [keyof ContentOf<R>] extends [never]
  ? undefined
  :
      | JsonBody<R>
      | JsonText<JsonBody<R>>
      | {
          [K in Exclude<keyof ContentOf<R>, "application/json">]: OtherBody<ContentOf<R>, K>;
        }[Exclude<keyof ContentOf<R>, "application/json">];
type Part<P, K extends string> = K extends keyof P ? NonNullable<P[K]> : never;
type NeverToEmpty<T> = [T] extends [never] ? Record<never, never> : T;

/** The names `Defaults` lists for operation `Op` in location `In`. */
type DefaultedNames<Defaults, Op, In extends string> = Op extends keyof Defaults
  ? In extends keyof Defaults[Op]
    ? Defaults[Op][In] & string
    : never
  : never;

/** `P` with the parameters `Names` present (validation filled in their defaults). */
type WithDefaults<P, Names extends string> = [Names] extends [never]
  ? P
  : Omit<P, Names> & { [K in Names & keyof P]-?: NonNullable<P[K]> };

/** The statuses an operation documents. */
export type DocumentedStatus<
  Ops extends OperationsShape<Ops>,
  Op extends keyof Ops,
> = keyof Responses<Ops, Op> & number;

declare const replied: unique symbol;

/** One documented outcome of an operation: its status, the body for it, optional headers. */
export type HandlerResult<Ops extends OperationsShape<Ops>, Op extends keyof Ops> = {
  [Status in DocumentedStatus<Ops, Op>]: {
    status: Status;
    body: AnswerBody<Responses<Ops, Op>[Status]>;
    headers?: Record<string, string>;
  };
}[DocumentedStatus<Ops, Op>] & { readonly [replied]: Op };

/**
 * Builds a result; only documented statuses, only their documented bodies, or the JSON text of
 * one (`JsonText`, typed as the body it stands for).
 */
export type Reply<Ops extends OperationsShape<Ops>, Op extends keyof Ops> = <
  Status extends DocumentedStatus<Ops, Op>,
>(
  status: Status,
  body: AnswerBody<Responses<Ops, Op>[Status]>,
  headers?: Record<string, string>,
) => HandlerResult<Ops, Op>;

/** The request as a handler sees it, after validation. */
export interface HandlerRequest<
  Ops extends OperationsShape<Ops>,
  Op extends keyof Ops,
  Defaults = Record<never, never>,
> {
  query: NeverToEmpty<
    WithDefaults<Part<Ops[Op]["parameters"], "query">, DefaultedNames<Defaults, Op, "query">>
  >;
  params: NeverToEmpty<Part<Ops[Op]["parameters"], "path">>;
  body: Ops[Op] extends { requestBody: { content: { "application/json": infer Body } } }
    ? Body
    : undefined;
  /**
   * Who is calling: a key of the key store (`caller.key`), another credential a verifier
   * identified (`caller.subject`, `caller.credentials`), or, only where the operation's security
   * allows no credential, an address without one.
   */
  caller: Caller;
  requestId: string;
  reply: Reply<Ops, Op>;
  /**
   * For an operation that declares a success type other than `application/json` (its answers
   * are negotiated by `Accept`): the declared type an answer of `status` will be written in, so
   * the handler answers a body of that type (`text/csv` text, say); undefined for a status
   * declared without content. Undefined for every other operation.
   */
  mediaType: ((status: number) => string | undefined) | undefined;
}

/** The handler of one operation. */
export type Handler<
  Ops extends OperationsShape<Ops>,
  Op extends keyof Ops,
  Defaults = Record<never, never>,
> = (request: HandlerRequest<Ops, Op, Defaults>) => Promise<HandlerResult<Ops, Op>>;

/** One handler per operation of the API. */
export type HandlerTable<Ops extends OperationsShape<Ops>, Defaults = Record<never, never>> = {
  [Op in keyof Ops]: Handler<Ops, Op, Defaults>;
};
