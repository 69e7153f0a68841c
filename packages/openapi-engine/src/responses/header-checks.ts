/**
 * What express-openapi-validator does not check of an answer: that every header the documented
 * response marks `required` is there and matches its schema (a deprecated operation without its
 * Sunset, a 429 without Retry-After). On in development and tests, with response validation.
 *
 * @see https://spec.openapis.org/oas/v3.1.0#header-object
 */
import {
  type DocumentedResponse,
  deref,
  type JsonObject,
  type OpenApiDocument,
} from "@animal-store/openapi";
import { Ajv, type ValidateFunction } from "ajv";

/** Reads a header of the answer about to be sent. */
export type HeaderReader = (name: string) => number | string | string[] | undefined;

/** One required header of a documented response, and the check of its value. */
export interface HeaderCheck {
  name: string;
  validate: ValidateFunction | undefined;
}

/** The Ajv the header checks of one contract compile with. */
export function headerAjv(): Ajv {
  // Header values arrive as strings: coerce them to the schema's type, as a client would read them.
  return new Ajv({ coerceTypes: true, strict: false, allErrors: true });
}

/** The checks of every header `response` requires. */
export function compileHeaderChecks(
  ajv: Ajv,
  spec: OpenApiDocument,
  response: DocumentedResponse,
): HeaderCheck[] {
  return response.headers
    .filter((header) => header.required)
    .map((header) => {
      const schema = deref<JsonObject | undefined>(spec, header.schema);
      return {
        name: header.name,
        validate:
          schema === undefined
            ? undefined
            : ajv.compile({ type: "object", properties: { value: schema } }),
      };
    });
}

/** What is wrong with the headers `header` reads against `checks`; empty when nothing is. */
export function headerViolations(
  ajv: Ajv,
  checks: HeaderCheck[],
  header: HeaderReader,
  where: string,
): string[] {
  const found: string[] = [];
  for (const check of checks) {
    const raw = header(check.name);
    if (raw === undefined) {
      found.push(`${where} lacks the required header ${check.name}`);
      continue;
    }
    const value = Array.isArray(raw) ? raw.join(", ") : String(raw);
    if (check.validate && !check.validate({ value })) {
      const reason = ajv
        .errorsText(check.validate.errors, { dataVar: "" })
        .replace(/^\/value /, "");
      found.push(`${where} header ${check.name}: ${JSON.stringify(value)} ${reason}`);
    }
  }
  return found;
}
