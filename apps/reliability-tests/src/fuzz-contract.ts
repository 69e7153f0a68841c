/**
 * What the checks know of the contract, all derived from one document: its operations, the
 * validator, the headers and error body every answer carries (operations' or not), the methods
 * each path allows, the bearer realm of each operation, the body limit and the plans.
 */
import {
  basePathOf,
  type OpenApiDocument as ContractDocument,
  HTTP_METHODS,
  rateLimitPolicy,
  requestBodyLimitBytes,
} from "@animal-store/openapi";
import {
  type JsonSchema,
  listOperations,
  loadSpec,
  type OpenApiDocument,
  type OperationSpec,
  type ResponseSpec,
} from "./spec.js";
import { createSpecValidator, type SpecValidator } from "./spec-validator.js";

/** The contract as the checks read it. */
export interface FuzzContract {
  doc: OpenApiDocument;
  /** The servers' base path (`/v1`). */
  basePath: string;
  operations: OperationSpec[];
  validator: SpecValidator;
  /** Headers every documented response requires: what answers outside any operation carry too. */
  commonHeaders: ResponseSpec["headers"];
  /** The one schema of every documented error body, and the media types it comes as. */
  errorSchema: JsonSchema;
  errorMediaTypes: string[];
  bodyLimitBytes: number;
  /** The plan whose keys carry their own limits (`custom: true`). */
  customPlan: string;
  /** The plan callers without a valid key are counted on. */
  anonymousPlan: { name: string; perMinute: number };
  byId(operationId: string): OperationSpec;
  /**
   * What `Allow` lists for a path (info.description, "HTTP methods"): the path's operations'
   * methods, HEAD where there is a GET, and OPTIONS.
   */
  allowFor(path: string): string[];
  /**
   * The bearer challenges an operation's security asks for: each scheme's `x-realm` (null for a
   * scheme that names none: only the `Bearer` challenge is checked then).
   */
  realmsOf(op: OperationSpec): (string | null)[];
}

function commonHeadersOf(operations: OperationSpec[]): ResponseSpec["headers"] {
  const all = operations.flatMap((op) => Object.values(op.responses));
  const first = all[0]?.headers ?? {};
  return Object.fromEntries(
    Object.entries(first).filter(
      ([name, header]) =>
        header.required &&
        all.every((r) =>
          Object.entries(r.headers).some(
            ([n, h]) => h.required && n.toLowerCase() === name.toLowerCase(),
          ),
        ),
    ),
  );
}

function errorBodyOf(operations: OperationSpec[]) {
  const errors = operations.flatMap((op) =>
    Object.entries(op.responses)
      .filter(([status]) => /^[45]/.test(status))
      .map(([, r]) => r),
  );
  const schemas = new Set(errors.map((r) => JSON.stringify(r.bodySchema)));
  if (schemas.size !== 1) {
    throw new Error(
      `documented error responses use ${schemas.size} body schemas, the checks expect one`,
    );
  }
  return {
    errorSchema: JSON.parse([...schemas][0] as string) as JsonSchema,
    errorMediaTypes: [...new Set(errors.flatMap((r) => r.mediaTypes))],
  };
}

/** Reads everything the checks need from `doc` (by default the bundled contract). */
export function fuzzContract(doc: OpenApiDocument = loadSpec()): FuzzContract {
  const spec = doc as unknown as ContractDocument;
  const operations = listOperations(doc);
  const policy = rateLimitPolicy(spec);
  const customPlan = policy.planNames.find((name) => policy.plans[name]?.custom);
  if (customPlan === undefined) throw new Error("the contract has no plan with custom limits");
  const schemes = (doc.components.securitySchemes ?? {}) as Record<string, Record<string, unknown>>;
  return {
    doc,
    basePath: basePathOf(spec),
    operations,
    validator: createSpecValidator(doc),
    commonHeaders: commonHeadersOf(operations),
    ...errorBodyOf(operations),
    bodyLimitBytes: requestBodyLimitBytes(spec),
    customPlan,
    anonymousPlan: {
      name: policy.anonymousPlan,
      perMinute: policy.plans[policy.anonymousPlan]?.perMinute ?? 0,
    },
    byId(operationId) {
      const op = operations.find((o) => o.operationId === operationId);
      if (!op) throw new Error(`the spec has no operation ${operationId}`);
      return op;
    },
    allowFor(path) {
      const methods = new Set(operations.filter((op) => op.path === path).map((op) => op.method));
      if (methods.has("GET")) methods.add("HEAD");
      methods.add("OPTIONS");
      return HTTP_METHODS.map((m) => m.toUpperCase()).filter((m) => methods.has(m));
    },
    realmsOf(op) {
      return op.security.flatMap((requirement) =>
        Object.keys(requirement).map((name) => {
          const scheme = schemes[name];
          if (scheme?.type !== "http" || String(scheme.scheme).toLowerCase() !== "bearer") {
            throw new Error(
              `${op.operationId}: the auth check knows HTTP bearer schemes only (${name})`,
            );
          }
          return typeof scheme["x-realm"] === "string" ? scheme["x-realm"] : null;
        }),
      );
    },
  };
}
