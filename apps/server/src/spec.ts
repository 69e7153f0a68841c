/**
 * The bundled contract, loaded once. Values the server needs from it (body limit, list default,
 * plan names, the operation table) are read here rather than restated in code.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { OperationId } from "@animal-store/api-types";

/** The parts of the bundled OpenAPI document the server reads itself. */
export interface ApiSpec {
  openapi: string;
  info: Record<string, unknown> & {
    "x-request-body-limit-bytes": number;
    "x-rate-limit-plans": Record<string, unknown>;
  };
  paths: Record<string, Record<string, unknown>>;
  components: { parameters: Record<string, { schema?: { default?: unknown } }> } & Record<
    string,
    unknown
  >;
}

/** HTTP methods an OpenAPI path item can hold, in the order `Allow` lists them. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** One operation of the contract, as the router needs it. */
export interface SpecOperation {
  operationId: OperationId;
  method: string;
  /** OpenAPI path template relative to `/v1`, e.g. `/pets/{petId}`. */
  path: string;
  hasRequestBody: boolean;
}

let cached: { text: string; spec: ApiSpec } | undefined;

/** The bundled spec, as text and parsed; read from `@animal-store/openapi` once per process. */
export function loadBundledSpec(): { text: string; spec: ApiSpec } {
  if (!cached) {
    const file = createRequire(import.meta.url).resolve("@animal-store/openapi/openapi.json");
    const text = readFileSync(file, "utf8");
    cached = { text, spec: JSON.parse(text) as ApiSpec };
  }
  return cached;
}

/** The documented maximum request body size (info.x-request-body-limit-bytes). */
export function requestBodyLimitBytes(spec: ApiSpec): number {
  const limit = spec.info["x-request-body-limit-bytes"];
  if (!Number.isInteger(limit) || limit <= 0) {
    throw new Error("the bundled spec has no valid info.x-request-body-limit-bytes");
  }
  return limit;
}

/** The default page size of listPets (components.parameters.Limit.schema.default). */
export function defaultListLimit(spec: ApiSpec): number {
  const value = spec.components.parameters.Limit?.schema?.default;
  if (!Number.isInteger(value)) throw new Error("the bundled spec has no default for limit");
  return value as number;
}

/** The plan names of the contract (info.x-rate-limit-plans), e.g. free, pro, business. */
export function planNames(spec: ApiSpec): string[] {
  return Object.keys(spec.info["x-rate-limit-plans"]);
}

/** Every operation of the contract with its method and path. */
export function specOperations(spec: ApiSpec): SpecOperation[] {
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as { operationId?: string; requestBody?: unknown } | undefined;
      if (!op?.operationId) continue;
      operations.push({
        operationId: op.operationId as OperationId,
        method: method.toUpperCase(),
        path,
        hasRequestBody: op.requestBody !== undefined,
      });
    }
  }
  return operations;
}
