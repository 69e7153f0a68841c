/**
 * Request validation (and, in development and tests, response body validation) against the
 * contract, by express-openapi-validator's own validators, driven from the operation table.
 *
 * `OpenApiValidator.middleware()` costs about 38 µs a request on top of the validation itself:
 * five promise-chained middlewares, and a route lookup that compiles every path template with
 * path-to-regexp on every request. Here the same pieces the middleware assembles (its spec loader,
 * schema preprocessor, RequestValidator and ResponseValidator, with its option defaults; see
 * eov-adapter.ts) are built once, before the first request, and called synchronously; the
 * operation was already resolved by the operation table, so the validator is handed its route
 * instead of searching for it. Each route's request validator is built up front too, by
 * request-validation.ts, which also skips the validator's per-request set-up wherever it provably
 * changes nothing.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { engineErrors } from "../errors.js";
import type { Contract, RoutedOperation } from "./contract.js";
import { loadEov } from "./eov-adapter.js";
import { requestValidation } from "./request-validation.js";
import { fromValidator } from "./validator-errors.js";

/** What express-openapi-validator's route lookup would have put on `req.openapi`. */
interface RouteMetadata {
  expressRoute: string;
  openApiRoute: string;
  schema: unknown;
  serial: number;
  _responseSchema: unknown;
  /** Validates the request against the operation (request-validation.ts). */
  validateRequest: RequestHandler;
}

interface ContractValidators {
  routes: Map<string, RouteMetadata>;
  taken: ContractValidation["taken"];
  /** Wraps res.json to validate what the handler answers; only when responses are validated. */
  validateResponse: RequestHandler | undefined;
}

/** Builds the validators (spec load, preprocessing and the validators' Ajv instances). */
/** What validation reads of the contract. */
export type ValidatedContract = Pick<Contract, "spec" | "basePath"> & {
  operations: RoutedOperation[];
};

async function buildValidators(
  contract: ValidatedContract,
  validateResponses: boolean,
): Promise<ContractValidators> {
  const eov = loadEov();
  const validator = new eov.OpenApiValidator({
    apiSpec: contract.spec,
    validateApiSpec: false,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses,
    validateSecurity: false,
    // Bodies are JSON only and parsed before validation; no multipart.
    fileUploader: false,
  });
  // As OpenApiValidator.middleware() does: load a copy (the validators annotate it), preprocess.
  const loaded = await new eov.OpenApiSpecLoader({
    apiDoc: structuredClone(contract.spec),
    validateApiSpec: false,
    $refParser: validator.options.$refParser,
  }).load();
  const { apiDocRes } = new eov.SchemaPreprocessor(
    loaded.apiDoc,
    validator.ajvOpts.preprocessor,
    validator.options.validateResponses,
  ).preProcess();

  const requests = requestValidation(loaded.apiDoc, validator.ajvOpts.request);
  const routes = new Map<string, RouteMetadata>();
  for (const operation of contract.operations) {
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
    routes.set(operation.operationId, {
      expressRoute: route.expressRoute,
      openApiRoute: route.openApiRoute,
      schema,
      serial: loaded.serial,
      _responseSchema: apiDocRes?.paths[operation.path]?.[method],
      validateRequest: requests.forRoute({
        method: operation.method,
        expressRoute: route.expressRoute,
        operation: schema,
      }),
    });
  }
  return {
    routes,
    taken: requests.taken,
    validateResponse: validateResponses
      ? validator.responseValidationMiddleware(apiDocRes, loaded.serial)
      : undefined,
  };
}

/** The operation's path parameters from the router's match, percent-decoded; 400 for a bad escape. */
function pathParameters(operation: RoutedOperation, match: RegExpExecArray | undefined) {
  const params: Record<string, string> = {};
  const { names } = operation;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const raw = match?.[i + 1] ?? "";
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      throw engineErrors.badPathEscape(name);
    }
  }
  return params;
}

/** The validation middleware and a promise that settles once its validators are built. */
export interface ContractValidation {
  middleware: RequestHandler;
  ready: Promise<void>;
  /** Requests validated by the direct path and by the validator's stock middleware. */
  taken: { direct: number; stock: number };
}

/**
 * Middleware (after the operation is resolved and the body parsed): validates the request against
 * its operation, coercing parameters to their schema types as express-openapi-validator does
 * (they land on `req.openapi.pathParams` and `req.query`); with `validateResponses`, also arranges
 * for the handler's answer to be validated. The validator's errors go to `next` as the engine's.
 */
export function contractValidation(
  contract: ValidatedContract,
  options: { validateResponses: boolean },
): ContractValidation {
  let validators: ContractValidators | undefined;
  const building = buildValidators(contract, options.validateResponses).then((built) => {
    validators = built;
  });
  // A build failure surfaces through every request (and through `ready`), never as an
  // unhandled rejection.
  building.catch(() => {});

  function validate(built: ContractValidators, req: Request, res: Response, next: NextFunction) {
    const operation = res.locals.operation as RoutedOperation;
    const route = built.routes.get(operation.operationId) as RouteMetadata;
    const pathParams = pathParameters(operation, res.locals.pathMatch);
    (req as Request & { openapi: unknown }).openapi = {
      expressRoute: route.expressRoute,
      openApiRoute: route.openApiRoute,
      pathParams,
      schema: route.schema,
      serial: route.serial,
      _responseSchema: route._responseSchema,
    };
    req.params = pathParams;
    const { validateRequest } = route;
    const { validateResponse } = built;
    if (validateResponse === undefined) {
      validateRequest(req, res, next);
      return;
    }
    // The response validator wraps res.json and calls its next at once (synchronously).
    validateResponse(req, res, (err?: unknown) => {
      if (err) next(err);
      else validateRequest(req, res, next);
    });
  }

  function middleware(req: Request, res: Response, next: NextFunction): void {
    // The validator's errors become the engine's here, whether it throws or passes them on.
    const converted: NextFunction = (err?: unknown) =>
      next(err === undefined ? undefined : fromValidator(err));
    if (validators !== undefined) {
      try {
        validate(validators, req, res, converted);
      } catch (err) {
        converted(err);
      }
      return;
    }
    building
      .then(() => validate(validators as ContractValidators, req, res, converted))
      .catch(converted);
  }
  return {
    middleware,
    ready: building,
    get taken() {
      return { ...(validators?.taken ?? { direct: 0, stock: 0 }) };
    },
  };
}
