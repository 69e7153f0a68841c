/**
 * An operation's documented answers, compiled once: for each documented response, its serializer
 * (production) or the checks of its required headers and its body (development and tests). An
 * answer's status selects its documented response as OpenAPI does: the exact code, else its
 * class (`4XX`), else `default`; the selection is cached per status, so a request looks up a
 * number, never builds a key.
 *
 * @see https://spec.openapis.org/oas/v3.1.0#responses-object
 */
import { type OpenApiDocument, responseForStatus } from "@animal-store/openapi";
import type { Ajv } from "ajv";
import type { ServedOperation } from "../contract/contract.js";
import {
  compileHeaderChecks,
  type HeaderCheck,
  type HeaderReader,
  headerViolations,
} from "./header-checks.js";
import { compileSerializer, type Serializer } from "./serializers.js";

/** One documented response of an operation, compiled. */
export interface CompiledAnswer {
  /** As documented: `"200"`, `"4XX"`, `"default"`. */
  documented: string;
  /** Writes a body of its schema; undefined without one, or when answers are checked instead. */
  serialize: Serializer | undefined;
  /** The headers it requires, each with its check; empty unless answers are checked. */
  requiredHeaders: HeaderCheck[];
}

/** The compiled answers of one operation. */
export interface CompiledAnswers {
  /** The documented response that answers `status`; undefined when none does. */
  forStatus(status: number): CompiledAnswer | undefined;
  /**
   * What is wrong with answering `status` with these headers and `body` (checked answers only):
   * an undocumented status, a missing or invalid required header, a body off its schema.
   */
  violations(status: number, header: HeaderReader, body: unknown): string[];
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
    operation.responses.map((response) => [
      response.status,
      {
        documented: response.status,
        serialize: mode.serialize ? compileSerializer(spec, response) : undefined,
        requiredHeaders: mode.serialize ? [] : compileHeaderChecks(mode.ajv, spec, response),
      },
    ]),
  );
  const byStatus = new Map<number, CompiledAnswer | undefined>();
  const forStatus = (status: number): CompiledAnswer | undefined => {
    if (byStatus.has(status)) return byStatus.get(status);
    const documented = responseForStatus(operation.responses, status)?.status;
    const answer = documented === undefined ? undefined : compiled.get(documented);
    byStatus.set(status, answer);
    return answer;
  };
  return {
    forStatus,
    violations(status, header, body) {
      const where = `${operation.operationId} ${status}`;
      const answer = forStatus(status);
      if (answer === undefined)
        return [`${operation.operationId} does not document status ${status}`];
      if (mode.serialize) return [];
      const found = headerViolations(mode.ajv, answer.requiredHeaders, header, where);
      try {
        mode.checkBody?.(status, body);
      } catch (err) {
        found.push(`${where} body: ${(err as Error).message}`);
      }
      return found;
    },
  };
}
