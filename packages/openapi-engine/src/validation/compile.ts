/**
 * Request validation (and, in development and tests, response body validation) against the
 * contract by express-openapi-validator's own validators, compiled per operation at start.
 *
 * `OpenApiValidator.middleware()` assembles these pieces on the first request and then, on every
 * request, runs five promise-chained middlewares and a route lookup that compiles every path
 * template again. Here the same pieces (its spec loader, schema preprocessor, request and
 * response validators, with its option defaults; see eov-adapter.ts) are built once, before the
 * first request, one set per operation, and called synchronously; the router already knows the
 * operation, so nothing searches for it. request-validation.ts also skips the validator's
 * per-request set-up wherever it provably changes nothing.
 */
import { withoutExtensions } from "@animal-store/openapi";
import type { Contract, ServedOperation } from "../contract/contract.js";

/** What validation reads of an operation. */
type ValidatedOperation = Pick<ServedOperation, "operationId" | "method" | "path">;

import { type Json, loadEov } from "./eov-adapter.js";
import { type RequestValidator, requestValidation } from "./request-validation.js";

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

/** The validators of every operation of `contract`, in its order (and a request count by path). */
export async function compileValidators(
  contract: ValidatedContract,
  options: { validateResponses: boolean },
): Promise<{ validators: OperationValidators[]; taken: { direct: number; stock: number } }> {
  const eov = loadEov();
  const validator = new eov.OpenApiValidator({
    apiSpec: contract.spec,
    validateApiSpec: false,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: options.validateResponses,
    validateSecurity: false,
    // Bodies are JSON only and parsed before validation; no multipart.
    fileUploader: false,
  });
  // As OpenApiValidator.middleware() does: load a copy (the validators annotate it), preprocess.
  // The copy has no specification extensions but the validator's own (`x-eov-*`): its loader
  // resolves every `$ref` it finds, and one inside an extension (`x-topics: {$ref: ./topics.md}`)
  // would open a file.
  const loaded = await new eov.OpenApiSpecLoader({
    apiDoc: withoutExtensions(contract.spec, /^x-eov-/),
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
        stockMetadata: {
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
  return { validators, taken: requests.taken };
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
