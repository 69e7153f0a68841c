/**
 * Reads which field a `validation_failed` message names. The contract says such a message names
 * the field; the server and the mock word it as the validator does: `body/<field> <problem>` or
 * `body must have required property '<field>'`.
 */
import type { ApiErrorBody } from "@animal-store/client";

/** A problem with one field of the request body. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** The body field a 400 `Error` names and what is wrong with it, or null when it names none. */
export function fieldErrorOf(error: ApiErrorBody): FieldError | null {
  if (error.code !== "validation_failed") return null;
  const required = /^body must have required property '([^']+)'/.exec(error.message);
  if (required?.[1]) return { field: required[1], message: "Required." };
  const field = /^body\/([^\s/]+) (.+)$/.exec(error.message);
  if (!field?.[1] || !field[2]) return null;
  const text = field[2].replace(/^must NOT/, "must not");
  return { field: field[1], message: `${text[0]?.toUpperCase()}${text.slice(1)}.` };
}
