/**
 * What a store method scaffolded for an operation takes and gives (`pnpm scaffold` writes
 * `name?(input: OperationInput<"op">): Promise<OperationOutput<"op">>` into `PetStore`): its path
 * and query parameters and its body in, its success answer's body out, from the generated types.
 */
import type { operations } from "@animal-store/api-types";

type Part<P, K extends string> = K extends keyof P ? NonNullable<P[K]> : Record<never, never>;
type JsonOf<R> = R extends { content: { "application/json": infer Body } } ? Body : never;
type Success<R> = {
  [S in keyof R]: S extends 200 | 201 | 202 | 204 ? JsonOf<R[S]> : never;
}[keyof R];

/** An operation's parameters (path and query) and, when it takes one, its body. */
export type OperationInput<Op extends keyof operations> = Part<
  operations[Op]["parameters"],
  "path"
> &
  Part<operations[Op]["parameters"], "query"> &
  (operations[Op] extends { requestBody: { content: { "application/json": infer Body } } }
    ? { body: Body }
    : Record<never, never>);

/** The body of an operation's success answer. */
export type OperationOutput<Op extends keyof operations> = Success<operations[Op]["responses"]>;
