/**
 * Types of the contract, generated from its bundled spec (src/generated/openapi.ts): openapi-typescript's
 * `paths`, `components` and `operations`, a named type per component schema (named by the rule of
 * scripts/render-types.mjs), the plan names and the parameters with defaults. Nothing here names
 * a schema: the named types come from the contract itself.
 */
import type { operations } from "./generated/openapi.js";

export type * from "./generated/openapi.js";

/** The operation ids of the API. */
export type OperationId = keyof operations;

type ValueOf<T> = T[keyof T];

/** The body types of a response map's error answers (4xx, 5xx, `4XX`, `5XX`, `default`). */
type ErrorBodies<Responses> = ValueOf<{
  [Status in keyof Responses]: `${Status & (string | number)}` extends
    | `4${string}`
    | `5${string}`
    | "default"
    ? Responses[Status] extends { content: infer Content }
      ? ValueOf<Content>
      : never
    : never;
}>;

/** The body of an error response of the contract: the union of every operation's error bodies. */
export type ApiError = ValueOf<{
  [Id in OperationId]: ErrorBodies<operations[Id]["responses"]>;
}>;

/** The `code` property of the contract's error body, when it has one (else `never`). */
export type ApiErrorCode = ApiError extends { code: infer Code } ? Code : never;
