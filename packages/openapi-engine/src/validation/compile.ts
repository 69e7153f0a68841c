/**
 * Request validation (and, in development and tests, response body validation) against the
 * contract by express-openapi-validator's own validators, compiled per operation at start.
 *
 * `OpenApiValidator.middleware()` assembles these pieces on the first request and then, on every
 * request, runs five promise-chained middlewares and a route lookup that compiles every path
 * template again. Here the same pieces (its spec loader, schema preprocessor, request and
 * response validators, with its option defaults; see eov-adapter.ts) are built once, before the
 * first request, one set per operation, and called synchronously; the router already knows the
 * operation, so nothing searches for it. validate.ts runs them on one road per request, without
 * the validator's per-request set-up.
 */
import { withoutExtensions } from "@animal-store/openapi";
import type { Contract, ServedOperation } from "../contract/contract.js";

/** What validation reads of an operation. */
type ValidatedOperation = Pick<ServedOperation, "operationId" | "method" | "path">;

import { type Json, loadEov } from "./eov-adapter.js";
import { ENGINE_FORMATS } from "./formats.js";
import { type RequestValidator, requestValidation } from "./validate.js";

/** Checks the JSON body answered with `status` against its documented schema; throws when not. */
export type ResponseBodyValidator = (status: number, body: unknown) => void;

/** What validation compiles for one operation. */
export interface OperationValidators {
  validateRequest: RequestValidator;
  /** Undefined unless responses are validated. */
  validateResponseBody: ResponseBodyValidator | undefined;
}

/** What validation reads of the contract. */
export type ValidatedContract = Pick<Contract, "spec" | "basePath"> & {
  operations: ValidatedOperation[];
};

/** The validators of every operation of `contract`, in its order. */
export async function compileValidators(
  contract: ValidatedContract,
  options: { validateResponses: boolean },
): Promise<OperationValidators[]> {
  const eov = loadEov();
  const validator = new eov.OpenApiValidator({
    apiSpec: contract.spec,
    validateApiSpec: false,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: options.validateResponses,
    validateSecurity: false,
    // Every format ajv-formats knows, in full (formats.ts); the validator's default is fast mode.
    ajvFormats: ENGINE_FORMATS,
    // Bodies of every type are read and parsed before validation (request-body/); no multer.
    fileUploader: false,
  });
  // As OpenApiValidator.middleware() does: load a copy (the validators annotate it), preprocess.
  // The copy has no specification extensions but the validator's own (`x-eov-*`): its loader
  // resolves every `$ref` it finds, and one inside an extension (`x-topics: {$ref: ./topics.md}`)
  // would open a file.
  const loaded = await new eov.OpenApiSpecLoader({
    apiDoc: validatedCopy(withoutExtensions(contract.spec, /^x-eov-/)),
    validateApiSpec: false,
    $refParser: validator.options.$refParser,
  }).load();
  const { apiDocRes } = new eov.SchemaPreprocessor(
    loaded.apiDoc,
    validator.ajvOpts.preprocessor,
    validator.options.validateResponses,
  ).preProcess();
  const requests = requestValidation(loaded.apiDoc, validator.ajvOpts.request);
  const responses =
    options.validateResponses && apiDocRes
      ? new eov.ResponseValidator(
          apiDocRes,
          validator.ajvOpts.response,
          validator.options.validateResponses,
          loaded.serial,
        )
      : undefined;

  const validators = contract.operations.map((operation): OperationValidators => {
    const route = loaded.routes.find(
      (r) =>
        r.basePath === contract.basePath &&
        r.method === operation.method &&
        r.openApiRoute === `${contract.basePath}${operation.path}`,
    );
    if (route === undefined) {
      throw new Error(`express-openapi-validator found no route for ${operation.operationId}`);
    }
    const method = operation.method.toLowerCase();
    const schema = loaded.apiDoc.paths[operation.path]?.[method];
    if (schema === undefined) throw new Error(`the loaded spec lacks ${operation.operationId}`);
    const responseSchema = apiDocRes?.paths[operation.path]?.[method] as Json | undefined;
    return {
      validateRequest: requests.forRoute({
        method: operation.method,
        expressRoute: route.expressRoute,
        operation: schema,
        metadata: {
          expressRoute: route.expressRoute,
          openApiRoute: route.openApiRoute,
          schema,
          serial: loaded.serial,
          _responseSchema: responseSchema,
        },
      }),
      validateResponseBody:
        responses === undefined
          ? undefined
          : responseBodyValidator(responses, operation, responseSchema?.responses),
    };
  });
  return validators;
}

/**
 * The copy of the spec the validator loads, with OpenAPI's defaults written out where the
 * validator reads them differently:
 * - every query parameter `allowReserved: true`. The validator refuses any of
 *   ``:/?#[]@!$&'()*+,;=`` unencoded in a query value (`must be url encoded`), but `allowReserved`
 *   says how a client serializes, and RFC 3986 section 3.4 lets a query hold `:`, `@`, `/` and
 *   `?` unencoded: the query is split on `&` and `=` before values are decoded, so a server
 *   loses nothing by accepting them (Ajv and Prism do). A `date-time` with its colons then passes.
 * - every parameter's `style` (without `content`), OpenAPI's default for where it is (`simple` in
 *   the path and headers, `form` in the query and cookies): the validator splits an array header
 *   only when its style is written, and refuses one without.
 * - every Request Body Object's `required` as a boolean: OpenAPI's default is `false`, but the
 *   validator only treats a body as optional when `required: false` is written. Whether a body is
 *   required is decided by the body step (request-body/body-step.ts) before validation.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#parameter-object
 * @see https://spec.openapis.org/oas/v3.1.1#style-values
 * @see https://spec.openapis.org/oas/v3.1.1#request-body-object
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.4
 */
const DEFAULT_STYLES: Record<string, string | undefined> = {
  path: "simple",
  query: "form",
  header: "simple",
  cookie: "form",
};

export function validatedCopy(spec: unknown): Json {
  const copy = structuredClone(spec) as Json;
  const parameter = (value: unknown) => {
    const p = value as Json | null;
    if (p === null || typeof p !== "object") return;
    if (p.in === "query") p.allowReserved = true;
    if (p.style === undefined && p.content === undefined && typeof p.in === "string") {
      p.style = DEFAULT_STYLES[p.in];
    }
  };
  const requestBody = (value: unknown) => {
    const b = value as Json | null;
    if (b !== null && typeof b === "object" && b.$ref === undefined)
      b.required = b.required === true;
  };
  const components = (copy.components ?? {}) as Json;
  for (const p of Object.values((components.parameters ?? {}) as Json)) parameter(p);
  for (const b of Object.values((components.requestBodies ?? {}) as Json)) requestBody(b);
  for (const item of Object.values((copy.paths ?? {}) as Record<string, Json>)) {
    if (item === null || typeof item !== "object") continue;
    for (const p of (item.parameters as unknown[] | undefined) ?? []) parameter(p);
    for (const operation of Object.values(item)) {
      if (operation === null || typeof operation !== "object" || Array.isArray(operation)) continue;
      const op = operation as Json;
      for (const p of (op.parameters as unknown[] | undefined) ?? []) parameter(p);
      if (op.requestBody !== undefined) requestBody(op.requestBody);
    }
  }
  return copy;
}

/** The validator's response check for one operation, its Ajv validators compiled now. */
function responseBodyValidator(
  responses: InstanceType<ReturnType<typeof loadEov>["ResponseValidator"]>,
  operation: ValidatedOperation,
  documented: unknown,
): ResponseBodyValidator {
  const path = `${operation.method} ${operation.path}`;
  const validators = responses.buildValidators(
    (documented ?? {}) as Json,
    `${operation.method}-${operation.operationId}-response`,
  );
  return (status, body) =>
    responses._validate({
      validators,
      body,
      statusCode: status,
      path,
      accepts: ["application/json"],
    });
}
