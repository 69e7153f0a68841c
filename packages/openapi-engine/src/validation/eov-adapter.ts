/**
 * Every private use of express-openapi-validator, in one place. The server drives the validator's
 * own pieces (its spec loader, schema preprocessor, request and response validators, error
 * helpers) directly instead of through `OpenApiValidator.middleware()` (see compile.ts and
 * validate.ts for why). These are modules of the package's build: it declares no
 * `exports` map, so the version is pinned exactly in package.json, and `loadEov` checks every
 * member at once, naming what an upgrade moved (eov-adapter.test.ts runs it).
 */
import { createRequire } from "node:module";
import type { RequestHandler } from "express";

const require = createRequire(import.meta.url);
const EOV = "express-openapi-validator/dist";

/** A JSON object of the (loaded) spec. */
export type Json = Record<string, unknown>;

/** An Ajv validate function, as compiled by the validator. */
export type AjvValidate = ((data: unknown) => boolean) & {
  errors?: unknown[] | null;
  /** The schema it was compiled from. */
  schema?: unknown;
};

/** The parts of the validator's Ajv instances used here. */
export interface Ajv {
  getSchema(key: string): AjvValidate | undefined;
  errorsText(errors: unknown[], options: { dataVar: string }): string;
}

/** The validator's parsed Content-Type. */
export interface EovContentType {
  mediaType: string | null;
  normalize(): string | undefined;
}

/** The validator's RequestValidator. */
export interface EovRequestValidator {
  ajv: Ajv;
  ajvBody: Ajv;
  requestOpts: { allowUnknownQueryParameters?: boolean };
  /** Compiles (and caches under `cacheKey`) the route's validators; returns its middleware. */
  buildMiddleware(
    path: string,
    operation: Json,
    contentType: EovContentType,
    cacheKey: string,
  ): RequestHandler;
  validate: RequestHandler;
  /** Parses the JSON text of each multipart field the body schema types as an object or array. */
  multipartNested(req: unknown, schemaBody: unknown): void;
  /** The body validator the discriminator value selects; throws the validator's 400 if none. */
  discriminatorValidator(req: unknown, discriminator: Json): AjvValidate | null;
}

/** The validator's parameter mutator: reshapes parameters by their style, in place. */
export interface EovParameterMutator {
  /** Reads `req.openapi.schema`; reshapes `req.query`, `req.params`, headers and cookies. */
  modifyRequest(req: unknown): void;
}

/** A route the validator's spec loader found. */
export interface EovRoute {
  basePath: string;
  expressRoute: string;
  openApiRoute: string;
  method: string;
}

/** What the validator's spec loader produces. */
export interface EovLoadedSpec {
  apiDoc: { paths: Record<string, Record<string, Record<string, unknown>>> };
  routes: EovRoute[];
  serial: number;
}

/** The validator's option holder, with its defaults applied. */
export interface EovOptions {
  readonly options: { validateResponses: unknown; $refParser: unknown };
  readonly ajvOpts: { preprocessor: unknown; request: unknown; response: unknown };
}

/** The validator's ResponseValidator: validators per documented status, and the check itself. */
export interface EovResponseValidator {
  buildValidators(responses: Json, cacheKey: string): Record<string, unknown>;
  /** Throws the validator's InternalServerError when the body breaks the status's schema. */
  _validate(args: {
    validators: Record<string, unknown>;
    body: unknown;
    statusCode: number;
    path: string;
    accepts: string[];
  }): void;
}

/** Every member of the validator this server uses. */
export interface EovModules {
  OpenApiValidator: new (options: Record<string, unknown>) => EovOptions;
  OpenApiSpecLoader: new (options: Record<string, unknown>) => { load(): Promise<EovLoadedSpec> };
  SchemaPreprocessor: new (
    apiDoc: unknown,
    ajvOptions: unknown,
    responseOptions: unknown,
  ) => { preProcess(): { apiDocRes: EovLoadedSpec["apiDoc"] | null } };
  RequestValidator: new (apiDoc: unknown, options: unknown) => EovRequestValidator;
  ResponseValidator: new (
    apiDoc: unknown,
    ajvOptions: unknown,
    eovOptions: unknown,
    serial: number,
  ) => EovResponseValidator;
  ContentType: { fromString(type: string | undefined): EovContentType };
  augmentAjvErrors(errors: unknown[]): unknown[];
  ajvErrorsToValidatorError(status: number, errors: unknown[]): { errors: unknown };
  dereferenceParameter(apiDoc: unknown, parameter: unknown): Json;
  normalizeParameter(ajv: Ajv, parameter: Json): { name: string; schema: Json };
  RequestParameterMutator: new (
    ajv: Ajv,
    apiDoc: unknown,
    path: string,
    schemaProperties: Json,
  ) => EovParameterMutator;
  BadRequest: new (args: { path: string; message: string }) => Error & { errors?: unknown };
}

const MODULES = [
  "openapi.validator.js",
  "framework/openapi.spec.loader.js",
  "middlewares/parsers/schema.preprocessor.js",
  "middlewares/openapi.request.validator.js",
  "middlewares/openapi.response.validator.js",
  "middlewares/util.js",
  "middlewares/parsers/util.js",
  "middlewares/parsers/req.parameter.mutator.js",
  "framework/types.js",
];

/** Every member of the validator this server uses, by name. */
export const EOV_MEMBERS: ReadonlyArray<keyof EovModules> = [
  "OpenApiValidator",
  "OpenApiSpecLoader",
  "SchemaPreprocessor",
  "RequestValidator",
  "ResponseValidator",
  "ContentType",
  "augmentAjvErrors",
  "ajvErrorsToValidatorError",
  "dereferenceParameter",
  "normalizeParameter",
  "RequestParameterMutator",
  "BadRequest",
];

let loaded: EovModules | undefined;

/** The methods called on the validator's classes, by class. */
const EOV_METHODS: Partial<Record<keyof EovModules, string[]>> = {
  RequestValidator: ["buildMiddleware", "validate", "multipartNested", "discriminatorValidator"],
  RequestParameterMutator: ["modifyRequest"],
  ResponseValidator: ["buildValidators", "_validate"],
};

/** `found` as the validator's members; throws naming every member (or method) that is missing. */
export function checkEovMembers(found: Record<string, unknown>): EovModules {
  const missing: string[] = EOV_MEMBERS.filter((name) => typeof found[name] !== "function");
  for (const [name, methods] of Object.entries(EOV_METHODS)) {
    const prototype = (found[name] as { prototype?: Record<string, unknown> } | undefined)
      ?.prototype;
    if (prototype === undefined) continue;
    for (const method of methods) {
      if (typeof prototype[method] !== "function") missing.push(`${name}.prototype.${method}`);
    }
  }
  if (missing.length > 0) {
    throw new Error(`express-openapi-validator no longer provides ${missing.join(", ")}`);
  }
  return found as unknown as EovModules;
}

/** The validator's members, loaded and checked once; throws naming every one an upgrade moved. */
export function loadEov(): EovModules {
  if (loaded) return loaded;
  const found: Record<string, unknown> = {};
  for (const file of MODULES) {
    try {
      Object.assign(found, require(`${EOV}/${file}`));
    } catch {
      // A moved module shows up below as the members it held.
    }
  }
  loaded = checkEovMembers(found);
  return loaded;
}
