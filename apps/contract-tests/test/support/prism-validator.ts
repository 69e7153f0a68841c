/**
 * Prism's own response validator, in-process, for the one request Prism cannot proxy: a malformed
 * JSON body (Prism's HTTP server answers it itself before forwarding). The server's direct answer
 * is checked with the same `validateOutput` the proxy runs on every forwarded response.
 */
import { createRequire } from "node:module";
import { bundledContractPath } from "../../src/contract-paths.js";
import type { Violation } from "./exchange.js";

const require = createRequire(import.meta.url);

interface Diagnostic {
  path?: string[];
  code?: string | number;
  message: string;
  severity: number;
}
type Either = { _tag: "Left"; left: Diagnostic[] } | { _tag: "Right"; right: unknown };
interface PrismHttp {
  getHttpOperationsFromSpec(spec: string): Promise<{ id: string; iid?: string }[]>;
}
interface PrismValidator {
  validateOutput(input: {
    resource: unknown;
    element: { statusCode: number; headers: Record<string, string>; body: unknown };
  }): Either;
}

const prismHttp = require("@stoplight/prism-http") as PrismHttp;
const { validateOutput } = require("@stoplight/prism-http/dist/validator") as PrismValidator;
const SEVERITY = ["Error", "Warning", "Information", "Hint"];

/** Validates a response of `operationId` against the contract, as `prism proxy` would. */
export async function validateResponseWithPrism(
  operationId: string,
  response: { status: number; headers: Headers; body: unknown },
): Promise<Violation[]> {
  const operations = await prismHttp.getHttpOperationsFromSpec(bundledContractPath());
  const operation = operations.find((op) => op.iid === operationId);
  if (!operation) throw new Error(`the contract has no operation ${operationId}`);
  const result = validateOutput({
    resource: operation,
    element: {
      statusCode: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body: response.body,
    },
  });
  if (result._tag === "Right") return [];
  return result.left.map((d) => ({
    location: ["response", ...(d.path ?? [])],
    severity: SEVERITY[d.severity] ?? String(d.severity),
    code: d.code ?? "",
    message: d.message,
  }));
}
