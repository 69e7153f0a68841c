/**
 * Reads which field a `validation_failed` message names. The contract says such a message names
 * the field; the server and the stateful mock word it as the validator does: `body/<field>
 * <problem>` or `body must have required property '<field>'`. Prism's mock answers every invalid
 * body with one canned example, whatever was wrong; what it found is only in its `sl-violations`
 * header. So where an answer carries that header, a field is marked only when a violation names
 * it too; otherwise the form shows a general message rather than mark a field that was fine.
 */
import type { ApiErrorBody } from "@animal-store/client";

/** A problem with one field of the request body. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** The body field a 400 `Error` names and what is wrong with it, or null when it names none. */
export function fieldErrorOf(
  error: ApiErrorBody,
  violated: readonly string[] | null = null,
): FieldError | null {
  if (error.code !== "validation_failed") return null;
  const named = namedField(error.message);
  if (named === null || (violated !== null && !violated.includes(named.field))) return null;
  return named;
}

function namedField(message: string): FieldError | null {
  const required = /^body must have required property '([^']+)'/.exec(message);
  if (required?.[1]) return { field: required[1], message: "Required." };
  const field = /^body\/([^\s/]+) (.+)$/.exec(message);
  if (!field?.[1] || !field[2]) return null;
  const text = field[2].replace(/^must NOT/, "must not");
  return { field: field[1], message: `${text[0]?.toUpperCase()}${text.slice(1)}.` };
}

/** One of Prism's request violations, as its `sl-violations` header lists them. */
interface Violation {
  location?: unknown;
  code?: unknown;
  message?: unknown;
}

/**
 * The body fields Prism's `sl-violations` header (on `response`) says were wrong: a violation's
 * location below the body, or the property a `required` violation names. Null when the answer
 * carries no such header (the server and the stateful mock never send one).
 */
export function violatedFields(response: Pick<Response, "headers">): string[] | null {
  const header = response.headers.get("sl-violations");
  if (header === null) return null;
  let violations: Violation[];
  try {
    const parsed: unknown = JSON.parse(header);
    violations = Array.isArray(parsed) ? parsed : [];
  } catch {
    // Prism cuts a long list and says so ("Too many violations! ..."): no field is certain then.
    return [];
  }
  return violations.flatMap(({ location, code, message }) => {
    if (!Array.isArray(location) || location[0] !== "request" || location[1] !== "body") return [];
    if (typeof location[2] === "string") return [location[2]];
    const required = code === "required" ? /'([^']+)'/.exec(String(message))?.[1] : undefined;
    return required ? [required] : [];
  });
}
