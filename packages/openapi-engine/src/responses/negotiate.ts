/**
 * Which media type an answer is written in, decided from the operation's declared responses and
 * the request's `Accept`: compiled once per operation, one lookup per answer.
 *
 * How it plugs in: the compiled operation keeps `compileAnswerTypes(operation.responses)`. When a
 * handler answers `status`, `answerType(status, req.headers.accept)` says:
 * - `{ body: false }`: the response is declared without `content` (204, 304, or any declared that
 *   way): write no body and no `Content-Type`;
 * - `{ body: true, mediaType }`: the declared type to write (JSON through the serializer, a
 *   Buffer, stream or text as it is); `concrete: false` when the declared key is a range
 *   (`image/*`), so the handler's own type is needed;
 * - `{ notAcceptable: true, available }`: none of the declared types is acceptable: the 406 in
 *   the error shape, listing `available`. The catalogue has no 406 yet: `not_acceptable` (406)
 *   belongs in errors.ts when this is wired in.
 * The engine's own errors are not negotiated: RFC 9110 section 12.1 lets an error go out in a
 * type the client did not ask for, which is better than a 406 hiding the error.
 *
 * Choices made once here: no `Accept` (or `*\/*`) takes the first declared type, in the
 * contract's order; among acceptable types the client's preference (q-values, then specificity)
 * decides, ties going to the contract's order (negotiator's rules). A status not declared at all
 * is the response validator's concern; here it takes its range's, then `default`'s.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#responses-object
 * @see https://spec.openapis.org/oas/v3.1.1#response-object
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-12.5.1 (Accept)
 */
import Negotiator from "negotiator";

/** What an answer of a status is written as. */
export type AnswerType =
  | { body: false }
  | { body: true; mediaType: string; concrete: boolean }
  | { notAcceptable: true; available: readonly string[] };

/** One operation's answer types. */
export interface CompiledAnswerTypes {
  answerType(status: number, accept: string | undefined): AnswerType;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const NO_BODY: AnswerType = Object.freeze({ body: false });

/** Per status: its declared types (none: no body) and a bounded cache of decided Accept values. */
interface StatusTypes {
  types: readonly string[];
  decided: Map<string, AnswerType>;
}

/**
 * Compiles the declared `responses` (their `$ref`s resolved; `resolve` follows one when given).
 */
export function compileAnswerTypes(
  responses: unknown,
  resolve: (node: unknown) => unknown = (node) => node,
): CompiledAnswerTypes {
  const declared = isObject(responses) ? responses : {};
  const byKey = new Map<string, StatusTypes>();
  for (const [key, raw] of Object.entries(declared)) {
    const response = resolve(raw);
    const content = isObject(response) ? response.content : undefined;
    byKey.set(key, {
      types: isObject(content) ? Object.keys(content) : [],
      decided: new Map(),
    });
  }
  const statusTypes = (status: number): StatusTypes | undefined => {
    const text = String(status);
    return (
      byKey.get(text) ??
      byKey.get(`${text[0]}XX`) ??
      byKey.get(`${text[0]}xx`) ??
      byKey.get("default")
    );
  };

  function decide(types: readonly string[], accept: string): AnswerType {
    const [best] = new Negotiator({ headers: { accept } }).mediaTypes(types);
    if (best === undefined) return { notAcceptable: true, available: types };
    // negotiator answers the declared key as written (its own case and parameters).
    return { body: true, mediaType: best, concrete: !best.includes("*") };
  }

  return {
    answerType(status, accept) {
      const found = statusTypes(status);
      if (found === undefined || found.types.length === 0) return NO_BODY;
      const key = accept === undefined || accept.trim() === "" ? "*/*" : accept;
      const hit = found.decided.get(key);
      if (hit !== undefined) return hit;
      const answer = decide(found.types, key);
      // Bounded: clients send a handful of Accept values; a flood of odd ones is decided anew.
      if (found.decided.size < 64) found.decided.set(key, answer);
      return answer;
    },
  };
}
