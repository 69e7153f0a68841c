/**
 * The contract as data for the generators and checks: its operations, parameters, bodies,
 * responses, security, deprecation and links, read through the contract's own module
 * (`@animal-store/openapi`). Everything takes the document as an argument, so a check can be run
 * with an edited contract against a server serving another (how the planted faults work).
 */
import {
  allowsAnonymous,
  type OpenApiDocument as ContractDocument,
  deref,
  documentedResponses,
  loadBundledSpec,
  type OperationDeprecation,
  type OperationPagination,
  operationDeprecation,
  operationPagination,
  type PathTemplatePattern,
  pathTemplatePattern,
  type SecurityRequirement,
  type SpecOperation,
  specOperations,
} from "@animal-store/openapi";

/** A JSON Schema node as it appears in the bundled spec (refs left in place). */
export type JsonSchema = { [key: string]: unknown };

/** The parts of the OpenAPI document the suites read. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** A parameter with its `$ref` resolved. */
export interface ParameterSpec {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required: boolean;
  schema: JsonSchema;
}

/** A documented response: headers (with required flags), media types and JSON body schema. */
export interface ResponseSpec {
  headers: Record<string, { required: boolean; schema: JsonSchema }>;
  mediaTypes: string[];
  bodySchema: JsonSchema | null;
}

/** An OpenAPI link of a response: the operation it leads to and how its parameters are filled. */
export interface LinkSpec {
  name: string;
  status: string;
  operationId: string;
  /** Parameter name → runtime expression (`$response.body#/id`) or constant. */
  parameters: Record<string, unknown>;
}

/** One operation of the contract, with everything a request generator and a checker need. */
export interface OperationSpec {
  operationId: string;
  method: string;
  /** OpenAPI path template, e.g. `/pets/{petId}` (relative to the `/v1` server base). */
  path: string;
  parameters: ParameterSpec[];
  requestBody: { required: boolean; schema: JsonSchema } | null;
  responses: Record<string, ResponseSpec>;
  /** The operation as the contract module reads it, its path compiled (for example requests). */
  routed: SpecOperation & PathTemplatePattern;
  security: SecurityRequirement[];
  /** True when `security` lets a call go without any credential. */
  anonymous: boolean;
  deprecation: OperationDeprecation | undefined;
  links: LinkSpec[];
  /** How it pages (`x-pagination`): its server-issued cursor and its page size parameters. */
  pagination: OperationPagination | undefined;
}

/** The bundled spec that `pnpm bundle` produces. */
export function loadSpec(): OpenApiDocument {
  return loadBundledSpec().spec as unknown as OpenApiDocument;
}

/** Follows a local `$ref` (`#/a/b/c`) inside the document; throws on a dangling one. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  return deref(doc as ContractDocument, { $ref: ref });
}

function responsesOf(spec: ContractDocument, op: SpecOperation) {
  const responses: Record<string, ResponseSpec> = {};
  const links: LinkSpec[] = [];
  for (const response of documentedResponses(spec, op)) {
    const headers: ResponseSpec["headers"] = {};
    for (const header of response.headers) {
      headers[header.name] = { required: header.required, schema: header.schema ?? {} };
    }
    const json = response.content["application/json"] as { schema?: JsonSchema } | undefined;
    responses[response.status] = {
      headers,
      mediaTypes: Object.keys(response.content),
      bodySchema: json?.schema ?? null,
    };
    const raw = deref<Record<string, unknown>>(spec, op.operation.responses);
    const own = deref<{ links?: Record<string, unknown> }>(spec, raw[response.status]);
    for (const [name, rawLink] of Object.entries(own.links ?? {})) {
      const link = deref<{ operationId?: string; parameters?: Record<string, unknown> }>(
        spec,
        rawLink,
      );
      if (typeof link.operationId !== "string") {
        throw new Error(
          `${op.operationId}: link ${name} has no operationId (operationRef is not supported)`,
        );
      }
      const parameters = link.parameters ?? {};
      links.push({ name, status: response.status, operationId: link.operationId, parameters });
    }
  }
  return { responses, links };
}

/** Every operation of the spec, with parameters, body, responses and links resolved. */
export function listOperations(doc: OpenApiDocument): OperationSpec[] {
  const spec = doc as unknown as ContractDocument;
  const all = specOperations(spec);
  return all.map((op) => {
    const bodySchema = (
      op.requestBody?.content as Record<string, { schema?: JsonSchema }> | undefined
    )?.["application/json"]?.schema;
    return {
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      parameters: op.parameters.map((p) => ({
        ...(p as unknown as ParameterSpec),
        required: p.required === true,
      })),
      requestBody: bodySchema
        ? { required: op.requestBody?.required === true, schema: bodySchema }
        : null,
      ...responsesOf(spec, op),
      routed: { ...op, ...pathTemplatePattern(op.path) },
      security: op.security,
      anonymous: allowsAnonymous(op),
      deprecation: operationDeprecation(spec, op, all),
      pagination: operationPagination(spec, op),
    };
  });
}
