/**
 * An operation's documented answers, compiled once: for each documented response, its serializer
 * (production) or the checks of its required headers and its body (development and tests). An
 * answer's status selects its documented response as OpenAPI does: the exact code, else its
 * class (`4XX`), else `default`; the selection is cached per status, so a request looks up a
 * number, never builds a key.
 *
 * @see https://spec.openapis.org/oas/v3.1.0#responses-object
 */
import {
  deref,
  negotiatesContent,
  type OpenApiDocument,
  responseForStatus,
} from "@animal-store/openapi";
import type { Ajv } from "ajv";
import type { ServedOperation } from "../contract/contract.js";
import {
  compileHeaderChecks,
  type HeaderCheck,
  type HeaderReader,
  headerViolations,
} from "./header-checks.js";
import { type AnswerType, compileAnswerTypes } from "./negotiate.js";
import { compileSerializer, type Serializer } from "./serializers.js";

/**
 * What an answer's body is written as, decided from its documented response's `content`:
 * - `none`: declared without content (204, 304, or any status declared so): no body and no
 *   `Content-Type`;
 * - `json`: declared as `application/json` alone, written as JSON whatever `Accept` says (the
 *   road every JSON-only API takes, no negotiation on it);
 * - `negotiated`: any other declaration: the type is chosen by `Accept` among the declared ones
 *   (negotiate.ts), a JSON type written as JSON, any other written as the handler's Buffer,
 *   stream or text.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#response-object
 */
export type AnswerBody = "none" | "json" | "negotiated";

/** One documented response of an operation, compiled. */
export interface CompiledAnswer {
  /** As documented: `"200"`, `"4XX"`, `"default"`. */
  documented: string;
  body: AnswerBody;
  /** Writes a body of its JSON schema; undefined without one, or when answers are checked instead. */
  serialize: Serializer | undefined;
  /** The headers it requires, each with its check; empty unless answers are checked. */
  requiredHeaders: HeaderCheck[];
}

/** Whether a media type is written as JSON (`application/json` and the `+json` types, RFC 6839). */
export function isJsonType(mediaType: string): boolean {
  const essence = mediaType.split(";")[0]?.trim().toLowerCase() ?? "";
  return essence === "application/json" || essence.endsWith("+json");
}

/** The compiled answers of one operation. */
export interface CompiledAnswers {
  /**
   * Whether the operation negotiates its answers by `Accept` (it declares a success type other
   * than `application/json`); only then is `acceptable` asked, before the handler runs.
   */
  negotiates: boolean;
  /**
   * Whether any of the operation's success types is acceptable to `accept`; the declared types
   * when none is (for the 406), else undefined.
   */
  unacceptable(accept: string | undefined): readonly string[] | undefined;
  /** The type an answer of `status` is written in (`negotiated` answers only). */
  answerType(status: number, accept: string | undefined): AnswerType;
  /** The documented response that answers `status`; undefined when none does. */
  forStatus(status: number): CompiledAnswer | undefined;
  /**
   * What is wrong with answering `status` with these headers and `body` (checked answers only):
   * an undocumented status, a missing or invalid required header, a body off its schema (a JSON
   * body only: `checkBody` false for a body written in another type, or none).
   */
  violations(status: number, header: HeaderReader, body: unknown, checkBody?: boolean): string[];
}

/** How answers are compiled: serialized (production) or checked (responses validated). */
export type AnswerMode =
  | { serialize: true }
  | {
      serialize: false;
      ajv: Ajv;
      checkBody: ((status: number, body: unknown) => void) | undefined;
    };

/** Compiles the answers of `operation`. */
export function compileAnswers(
  spec: OpenApiDocument,
  operation: ServedOperation,
  mode: AnswerMode,
): CompiledAnswers {
  const compiled = new Map<string, CompiledAnswer>(
    operation.responses.map((response) => {
      const types = Object.keys(response.content);
      const body: AnswerBody =
        types.length === 0
          ? "none"
          : types.length === 1 && types[0] === "application/json"
            ? "json"
            : "negotiated";
      const jsonType = types.find(isJsonType);
      return [
        response.status,
        {
          documented: response.status,
          body,
          serialize:
            mode.serialize && jsonType !== undefined
              ? compileSerializer(spec, response, jsonType)
              : undefined,
          requiredHeaders: mode.serialize ? [] : compileHeaderChecks(mode.ajv, spec, response),
        },
      ];
    }),
  );
  const types = compileAnswerTypes(operation.operation.responses, (node) => deref(spec, node));
  const negotiates = negotiatesContent(operation);
  // The operation's success types as one response, for the check made before the handler runs.
  const success = compileAnswerTypes({
    "200": { content: Object.fromEntries(operation.successMediaTypes.map((t) => [t, {}])) },
  });
  const byStatus = new Map<number, CompiledAnswer | undefined>();
  const forStatus = (status: number): CompiledAnswer | undefined => {
    if (byStatus.has(status)) return byStatus.get(status);
    const documented = responseForStatus(operation.responses, status)?.status;
    const answer = documented === undefined ? undefined : compiled.get(documented);
    byStatus.set(status, answer);
    return answer;
  };
  return {
    negotiates,
    unacceptable(accept) {
      const decided = success.answerType(200, accept);
      return "notAcceptable" in decided ? decided.available : undefined;
    },
    answerType: types.answerType,
    forStatus,
    violations(status, header, body, checkBody = true) {
      const where = `${operation.operationId} ${status}`;
      const answer = forStatus(status);
      if (answer === undefined)
        return [`${operation.operationId} does not document status ${status}`];
      if (mode.serialize) return [];
      const found = headerViolations(mode.ajv, answer.requiredHeaders, header, where);
      if (!checkBody) return found;
      try {
        mode.checkBody?.(status, body);
      } catch (err) {
        found.push(`${where} body: ${(err as Error).message}`);
      }
      return found;
    },
  };
}
