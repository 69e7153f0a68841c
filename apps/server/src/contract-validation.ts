/**
 * Request validation (and, in development and tests, response validation) against the contract,
 * by express-openapi-validator's own validators, driven from the operation table.
 *
 * `OpenApiValidator.middleware()` costs about 38 µs a request on top of the validation itself:
 * five promise-chained middlewares, and a route lookup that compiles every path template with
 * path-to-regexp on every request. Here the same pieces the middleware assembles (its spec loader,
 * schema preprocessor, RequestValidator and ResponseValidator, with its option defaults) are built
 * once, before the first request, and called synchronously; the operation was already resolved by
 * the operation router, so the validator is handed its route instead of searching for it. Each
 * route's request validator is built up front too, by request-validation.ts, which also skips the
 * validator's per-request set-up wherever it provably changes nothing.
 *
 * These are modules of express-openapi-validator's build (it declares no `exports` map), so the
 * version is pinned exactly in package.json; contract-validation.test.ts fails on an upgrade that
 * moves them.
 */
import { createRequire } from "node:module";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { ApiHttpError } from "./errors.js";
import { templatePattern } from "./operation-router.js";
import { requestValidation } from "./request-validation.js";
import type { ApiSpec, SpecOperation } from "./spec.js";

const require = createRequire(import.meta.url);
const EOV = "express-openapi-validator/dist";

interface EovOptions {
  readonly options: { validateResponses: unknown; $refParser: unknown };
  readonly ajvOpts: { preprocessor: unknown; request: unknown };
}
interface EovValidatorModule {
  OpenApiValidator: new (
    options: Record<string, unknown>,
  ) => EovOptions & {
    responseValidationMiddleware(apiDoc: unknown, serial: number): RequestHandler;
  };
}
interface EovRoute {
  basePath: string;
  expressRoute: string;
  openApiRoute: string;
  method: string;
}
interface LoadedSpec {
  apiDoc: { paths: Record<string, Record<string, Record<string, unknown>>> };
  routes: EovRoute[];
  serial: number;
}
interface EovLoaderModule {
  OpenApiSpecLoader: new (options: Record<string, unknown>) => { load(): Promise<LoadedSpec> };
}
interface EovPreprocessorModule {
  SchemaPreprocessor: new (
    apiDoc: unknown,
    ajvOptions: unknown,
    responseOptions: unknown,
  ) => { preProcess(): { apiDocRes: LoadedSpec["apiDoc"] | null } };
}

/** What express-openapi-validator's route lookup would have put on `req.openapi`. */
interface RouteMetadata {
  expressRoute: string;
  openApiRoute: string;
  schema: unknown;
  serial: number;
  _responseSchema: unknown;
  /** The path template as a pattern capturing each parameter, and the parameters' names. */
  pattern: RegExp;
  names: string[];
  /** Validates the request against the operation (request-validation.ts). */
  validateRequest: RequestHandler;
}

interface ContractValidators {
  routes: Map<SpecOperation["operationId"], RouteMetadata>;
  taken: ContractValidation["taken"];
  /** Wraps res.json to validate what the handler answers; only when responses are validated. */
  validateResponse: RequestHandler | undefined;
}

/** Builds the validators (spec load, preprocessing and the validators' Ajv instances). */
async function buildValidators(
  spec: ApiSpec,
  operations: SpecOperation[],
  validateResponses: boolean,
): Promise<ContractValidators> {
  const { OpenApiValidator } = require(`${EOV}/openapi.validator.js`) as EovValidatorModule;
  const { OpenApiSpecLoader } = require(
    `${EOV}/framework/openapi.spec.loader.js`,
  ) as EovLoaderModule;
  const { SchemaPreprocessor } = require(
    `${EOV}/middlewares/parsers/schema.preprocessor.js`,
  ) as EovPreprocessorModule;
  const eov = new OpenApiValidator({
    apiSpec: spec,
    validateApiSpec: false,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses,
    validateSecurity: false,
    // Bodies are JSON only and parsed before validation; no multipart.
    fileUploader: false,
  });
  // As OpenApiValidator.middleware() does: load a copy (the validators annotate it), preprocess.
  const loaded = await new OpenApiSpecLoader({
    apiDoc: structuredClone(spec),
    validateApiSpec: false,
    $refParser: eov.options.$refParser,
  }).load();
  const { apiDocRes } = new SchemaPreprocessor(
    loaded.apiDoc,
    eov.ajvOpts.preprocessor,
    eov.options.validateResponses,
  ).preProcess();

  const requests = requestValidation(loaded.apiDoc, eov.ajvOpts.request);
  const routes = new Map<SpecOperation["operationId"], RouteMetadata>();
  for (const operation of operations) {
    const route = loaded.routes.find(
      (r) =>
        r.basePath === "/v1" &&
        r.method === operation.method &&
        r.openApiRoute === `/v1${operation.path}`,
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
      ...templatePattern(operation.path),
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
      ? eov.responseValidationMiddleware(apiDocRes, loaded.serial)
      : undefined,
  };
}

/** The operation's path parameters, percent-decoded; 400 for a malformed escape. */
function pathParameters(route: RouteMetadata, path: string): Record<string, string> {
  const params: Record<string, string> = {};
  if (route.names.length === 0) return params;
  const match = route.pattern.exec(path);
  for (let i = 0; i < route.names.length; i++) {
    const name = route.names[i] as string;
    const raw = match?.[i + 1] ?? "";
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      throw new ApiHttpError(
        400,
        "validation_failed",
        `path/${name} is not a valid percent-encoded value`,
      );
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
 * Middleware (after `resolveOperation` and the body parser): validates the request against its
 * operation, coercing parameters to their schema types as express-openapi-validator does (they
 * land on `req.openapi.pathParams` and `req.query`); with `validateResponses`, also arranges for
 * the handler's answer to be validated. Errors go to `next` as the validator raises them.
 */
export function contractValidation(
  spec: ApiSpec,
  operations: SpecOperation[],
  options: { validateResponses: boolean },
): ContractValidation {
  let validators: ContractValidators | undefined;
  const building = buildValidators(spec, operations, options.validateResponses).then((built) => {
    validators = built;
  });
  // A build failure surfaces through every request (and through `ready`), never as an
  // unhandled rejection.
  building.catch(() => {});

  function validate(built: ContractValidators, req: Request, res: Response, next: NextFunction) {
    const operation = res.locals.operation as SpecOperation;
    const route = built.routes.get(operation.operationId) as RouteMetadata;
    const pathParams = pathParameters(route, req.path);
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
    if (validators !== undefined) {
      try {
        validate(validators, req, res, next);
      } catch (err) {
        next(err);
      }
      return;
    }
    building.then(() => validate(validators as ContractValidators, req, res, next)).catch(next);
  }
  return {
    middleware,
    ready: building,
    get taken() {
      return { ...(validators?.taken ?? { direct: 0, stock: 0 }) };
    },
  };
}
