/**
 * What express-openapi-validator does not check of an answer: that its status is one the
 * operation documents, and that every header the documented response marks `required` is there
 * and matches its schema (a deprecated operation without its Sunset, a 429 without Retry-After).
 * On in development and tests, with response validation; a violation becomes a logged 500.
 */
import { deref, type JsonObject, responseForStatus } from "@animal-store/openapi";
import { Ajv, type ValidateFunction } from "ajv";
import type { CompiledOperation, Contract } from "./contract.js";

/** Reads a header of the answer about to be sent. */
export type HeaderReader = (name: string) => number | string | string[] | undefined;

interface HeaderCheck {
  name: string;
  validate: ValidateFunction | undefined;
}

/** Checks answers against their operation's documented responses. */
export interface ResponseConformance {
  /** What is wrong with answering `status` with these headers; empty when nothing is. */
  violations(operation: CompiledOperation, status: number, header: HeaderReader): string[];
}

/** Compiles the header checks of every documented response of the contract, once. */
export function compileResponseConformance(
  contract: Pick<Contract, "spec" | "operations">,
): ResponseConformance {
  // Header values arrive as strings: coerce them to the schema's type, as a client would read them.
  const ajv = new Ajv({ coerceTypes: true, strict: false, allErrors: true });
  const checks = new Map<string, HeaderCheck[]>();
  for (const operation of contract.operations) {
    for (const response of operation.responses) {
      const required = response.headers.filter((header) => header.required);
      checks.set(
        `${operation.operationId} ${response.status}`,
        required.map((header) => {
          const schema = deref<JsonObject | undefined>(contract.spec, header.schema);
          return {
            name: header.name,
            validate:
              schema === undefined
                ? undefined
                : ajv.compile({ type: "object", properties: { value: schema } }),
          };
        }),
      );
    }
  }
  return {
    violations(operation, status, header) {
      const response = responseForStatus(operation.responses, status);
      if (response === undefined) {
        return [`${operation.operationId} does not document status ${status}`];
      }
      const found: string[] = [];
      for (const check of checks.get(`${operation.operationId} ${response.status}`) ?? []) {
        const raw = header(check.name);
        if (raw === undefined) {
          found.push(`${operation.operationId} ${status} lacks the required header ${check.name}`);
          continue;
        }
        const value = Array.isArray(raw) ? raw.join(", ") : String(raw);
        if (check.validate && !check.validate({ value })) {
          found.push(
            `${operation.operationId} ${status} header ${check.name}: ${JSON.stringify(value)} ${ajv.errorsText(check.validate.errors, { dataVar: "" }).replace(/^\/value /, "")}`,
          );
        }
      }
      return found;
    },
  };
}
