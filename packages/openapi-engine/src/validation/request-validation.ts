/**
 * express-openapi-validator's request validation, with the work that depends only on the route
 * done once per route instead of on every request.
 *
 * On every request, the validator's own per-route middleware (the closure its RequestValidator
 * builds and caches) first re-derives things that never change for the route: it parses the
 * Content-Type to build a cache key, allocates a parameter mutator that dereferences and
 * normalizes every parameter again, parses the URL with the legacy `url.parse`, scans the query
 * for bracket notation and rebuilds the set of known query parameters. Only then does it run
 * the route's compiled Ajv validators.
 *
 * Here that closure is still built per route, by the validator itself, and it still handles
 * every request it treats specially: parameters the mutator reshapes (arrays, objects,
 * `content`, anything but a plain string, number, integer or boolean), bracket notation,
 * reserved characters anywhere in the query, unknown or empty query parameters, discriminators,
 * multipart bodies, wildcard routes. Every other request is one the mutator would leave as it
 * is, and for it the same compiled validators run directly, failures raising the same error,
 * built by the validator's own helpers. request-validation.test.ts sends a corpus of requests
 * through both this and the validator's stock middleware, on a spec with every parameter style,
 * and requires the same outcome for each.
 */
import { parse as parseCookies } from "cookie";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { BodyLocals } from "../request-body/body-step.js";
import { bodyFamily, type UploadedFile } from "../request-body/media-types.js";
import {
  type AjvValidate,
  type EovContentType,
  type EovRequestValidator,
  type Json,
  loadEov,
} from "./eov-adapter.js";

/**
 * Validates one request of an operation: its path parameters (on `req.params`, decoded), query,
 * headers and body, coercing parameters and filling in defaults in place as the validator does.
 * Returns when the request is valid; throws the validator's error when it is not.
 */
export type RequestValidator = (req: Request, res: Response) => void;

/** A route as the validator knows it: method, Express path and the (preprocessed) operation. */
export interface ValidatedRoute {
  method: string;
  expressRoute: string;
  operation: Json;
  /**
   * What the validator's stock middleware reads on `req.openapi` (its route lookup's result,
   * `pathParams` aside): set on the request only when that middleware runs.
   */
  stockMetadata: Record<string, unknown>;
}

/** The validator calls its `next` synchronously, with an error only to fail: thrown here. */
const throwOnError: NextFunction = (err?: unknown) => {
  if (err !== undefined && err !== null) throw err;
};

/** What a request needs so the mutator provably leaves it alone: then the validators run direct. */
interface DirectPlan {
  general: AjvValidate;
  body: AjvValidate;
  /** Names a query may carry (undefined: unknown query parameters are allowed). */
  knownQuery: Set<string> | undefined;
  allowEmpty: Set<string>;
  /** Some query parameter is checked for unencoded reserved characters. */
  checksReserved: boolean;
}

interface Plan {
  /** The validator's own per-route middleware. */
  stock: RequestHandler;
  direct: DirectPlan | undefined;
}

const PRIMITIVE_TYPES = new Set(["string", "number", "integer", "boolean"]);
// The validator's reserved characters (RESERVED_CHARS) except `&` and `=`, which cannot occur in
// a value it checks. A query containing any of them anywhere takes the stock path.
const RESERVED_IN_QUERY = /[:/?#[\]@!$'()*+,;]/;

/** The apiKey-in-query parameter names the route's security allows (as the validator finds them). */
function securityQueryParameters(apiDoc: Json, operation: Json): string[] {
  const own = operation.security as Json[] | undefined;
  const root = apiDoc.security as Json[] | undefined;
  const requirements = own?.length ? own : root?.length ? root : [];
  const schemes = (apiDoc.components as Json | undefined)?.securitySchemes as
    | Record<string, Json | undefined>
    | undefined;
  if (schemes === undefined) return [];
  return requirements
    .filter((requirement) => Object.keys(requirement).length > 0)
    .map((requirement) => schemes[Object.keys(requirement)[0] as string])
    .filter((scheme) => scheme?.type === "apiKey" && scheme.in === "query")
    .map((scheme) => scheme?.name as string);
}

/**
 * Builds request validation for each route from the validator's RequestValidator over `apiDoc`
 * (loaded and preprocessed as the validator's middleware does) with its request Ajv options.
 * `forRoute` makes a route's middleware, compiling its validators; `taken` counts requests by
 * the path they took.
 */
export function requestValidation(apiDoc: Json, ajvOptions: unknown) {
  const eov = loadEov();
  const validator = new eov.RequestValidator(apiDoc, ajvOptions);
  // Form and multipart bodies arrive as text: their fields are coerced to the schema's types as
  // query parameters are (a field sent once where the schema has an array becomes an array of
  // one). The validator coerces bodies only when told to, for every body of its instance: one
  // more instance, made on first need, validates those bodies.
  let textFields: EovRequestValidator | undefined;
  const coercing = () => {
    textFields ??= new eov.RequestValidator(apiDoc, {
      ...(ajvOptions as object),
      coerceTypes: "array",
    });
    return textFields;
  };

  function directPlan(
    validator: EovRequestValidator,
    route: ValidatedRoute,
    contentType: EovContentType,
    key: string,
  ) {
    const { operation, expressRoute } = route;
    if (expressRoute.endsWith("*") || contentType.mediaType === "multipart/form-data") return;
    const body = new eov.BodySchemaParser().parse(expressRoute, operation, contentType);
    if (body._discriminator !== undefined) return;
    const knownQuery = new Set(securityQueryParameters(apiDoc, operation));
    const allowEmpty = new Set<string>();
    let checksReserved = false;
    for (const reference of (operation.parameters as Json[] | undefined) ?? []) {
      const parameter = eov.dereferenceParameter(apiDoc, reference);
      const { name, schema } = eov.normalizeParameter(validator.ajv, parameter);
      const plain =
        parameter.content === undefined &&
        PRIMITIVE_TYPES.has(schema.type as string) &&
        schema.allOf === undefined &&
        schema.oneOf === undefined &&
        schema.anyOf === undefined;
      if (!plain) return;
      if (parameter.in !== "query") continue;
      knownQuery.add(name);
      if (parameter.allowEmptyValue) allowEmpty.add(name);
      if (!parameter.allowReserved) checksReserved = true;
    }
    const allowUnknown = Boolean(
      operation["x-eov-allow-unknown-query-parameters"] ??
        operation["x-allow-unknown-query-parameters"] ??
        validator.requestOpts.allowUnknownQueryParameters,
    );
    const general = validator.ajv.getSchema(key);
    const bodyValidate = validator.ajvBody.getSchema(key);
    if (general === undefined || bodyValidate === undefined) return;
    return {
      general,
      body: bodyValidate,
      knownQuery: allowUnknown ? undefined : knownQuery,
      allowEmpty,
      checksReserved,
    } satisfies DirectPlan;
  }

  /** The plan of requests whose body is of the declared media type `mediaKey` (none: no body). */
  function buildPlan(route: ValidatedRoute, mediaKey: string | undefined): Plan {
    const contentType = eov.ContentType.fromString(mediaKey);
    const family = mediaKey === undefined ? undefined : bodyFamily(contentType.mediaType ?? "");
    const by = family === "form" || family === "multipart" ? coercing() : validator;
    // The validator's own cache key, under which it compiles (and caches) the Ajv validators.
    const key = `${route.method}-${route.expressRoute}-${contentType.normalize() ?? "not_provided"}`;
    const stock = by.buildMiddleware(route.expressRoute, route.operation, contentType, key);
    return { stock, direct: directPlan(by, route, contentType, key) };
  }

  /** True when the request went through `plan.direct`; false leaves it to the stock path. */
  function validateDirect(plan: DirectPlan, req: Request): boolean {
    const query = req.query as Record<string, unknown>;
    // As the stock path leaves it: Express 5's req.query getter replaced by the parsed object
    // (validate.ts has pinned it already when it runs this).
    if (!Object.hasOwn(req, "query"))
      Object.defineProperty(req, "query", { writable: true, value: query });
    if (plan.checksReserved) {
      const url = req.originalUrl;
      const at = url.indexOf("?");
      if (at !== -1 && RESERVED_IN_QUERY.test(url.slice(at + 1))) return false;
    }
    const { knownQuery, allowEmpty } = plan;
    for (const name in query) {
      if (name.includes("[")) return false;
      if (
        knownQuery !== undefined &&
        (!knownQuery.has(name) || (query[name] === "" && !allowEmpty.has(name)))
      ) {
        return false;
      }
    }
    const { cookies, signedCookies } = req as Request & { cookies?: Json; signedCookies?: Json };
    const data = {
      query,
      headers: req.headers,
      params: req.params,
      cookies: cookies ? { ...cookies, ...signedCookies } : undefined,
      body: req.body as unknown,
    };
    // Both run, as in the stock path, so both error lists are this request's.
    const valid = plan.general(data);
    const validBody = plan.body(data);
    if (valid && validBody) return true;
    const errors = eov.augmentAjvErrors([
      ...(plan.general.errors ?? []),
      ...(plan.body.errors ?? []),
    ]);
    const error = new eov.BadRequest({
      path: req.path,
      message: validator.ajv.errorsText(errors, { dataVar: "request" }),
    });
    error.errors = eov.ajvErrorsToValidatorError(400, errors).errors;
    throw error;
  }

  /** How many requests each path took (tests check the direct path is really taken). */
  const taken = { direct: 0, stock: 0 };

  /** The validator's stock middleware for `plan`, given the `req.openapi` it reads. */
  function stock(route: ValidatedRoute, run: RequestHandler, req: Request, res: Response): void {
    taken.stock++;
    (req as Request & { openapi: unknown }).openapi = {
      ...route.stockMetadata,
      pathParams: req.params,
    };
    run(req, res, throwOnError);
  }

  /** The request validator of `route`, its validators compiled now. */
  function forRoute(route: ValidatedRoute): RequestValidator {
    const run = (plan: Plan, req: Request, res: Response) => {
      if (plan.direct !== undefined) {
        if (validateDirect(plan.direct, req)) {
          taken.direct++;
          return;
        }
      } else {
        // Without a direct plan the stock path starts from Express's own getter, as it always
        // has (validate.ts pins the parsed query; the stock path keeps what it finds pinned).
        delete (req as { query?: unknown }).query;
      }
      stock(route, plan.stock, req, res);
    };
    const cookies = declaresCookies(apiDoc, route.operation);
    const requestBody = route.operation.requestBody as Json | null | undefined;
    const content = requestBody?.content as Json | null | undefined;
    if (content === undefined || content === null) {
      // Without a body, one plan (and the cookies parsed only where a parameter is a cookie).
      const plan = buildPlan(route, undefined);
      if (!cookies) return (req, res) => run(plan, req, res);
      return (req, res) => {
        withCookies(req);
        run(plan, req, res);
      };
    }
    // One plan per declared media type, compiled now; the body step has selected the key
    // (res.locals.mediaType), so no Content-Type is parsed or matched again here. Without a body
    // (one not required), the plan of none: the body step has already refused a missing body
    // that is required.
    const plans = new Map(Object.keys(content).map((type) => [type, buildPlan(route, type)]));
    const none = requestBody?.required === true ? undefined : buildPlan(route, undefined);
    return (req, res) => {
      if (cookies) withCookies(req);
      const selected = (res.locals as unknown as BodyLocals).mediaType;
      const plan = selected === undefined ? none : plans.get(selected.key);
      if (plan === undefined) throw new Error(`no validation plan for ${route.expressRoute}`);
      const family = selected?.family;
      if (family !== "binary" && family !== "multipart") {
        run(plan, req, res);
        return;
      }
      // Bytes are checked as text of one character per byte (so `maxLength` counts bytes), then
      // handed to the handler as they came: a Buffer, and each file part an UploadedFile.
      const sent = req.body as Buffer | Record<string, unknown>;
      req.body =
        family === "binary" ? (sent as Buffer).toString("latin1") : withFilesAsText(sent as Json);
      run(plan, req, res);
      req.body = family === "binary" ? sent : withFilesRestored(req.body as Json, sent as Json);
    };
  }
  return { forRoute, taken };
}

/** Whether `operation` declares a cookie parameter (cookies are then parsed for the validator). */
function declaresCookies(apiDoc: Json, operation: Json): boolean {
  const eov = loadEov();
  return ((operation.parameters as Json[] | undefined) ?? []).some(
    (reference) => eov.dereferenceParameter(apiDoc, reference).in === "cookie",
  );
}

/** `req.cookies` from the Cookie header, as the validator reads cookie parameters from it. */
function withCookies(req: Request): void {
  const header = req.headers.cookie;
  (req as Request & { cookies?: Record<string, string | undefined> }).cookies =
    header === undefined ? {} : parseCookies(header);
}

function isFile(value: unknown): value is UploadedFile {
  return (
    typeof value === "object" && value !== null && Buffer.isBuffer((value as UploadedFile).data)
  );
}

/** A copy of multipart `fields` with each file part as the text of its bytes, one per byte. */
function withFilesAsText(fields: Record<string, unknown>): Json {
  const view: Json = Object.create(null);
  for (const name in fields) {
    const value = fields[name];
    view[name] = Array.isArray(value)
      ? value.map((v) => (isFile(v) ? v.data.toString("latin1") : v))
      : isFile(value)
        ? value.data.toString("latin1")
        : value;
  }
  return view;
}

/** `checked` (the validated, coerced fields) with each file part of `sent` put back. */
function withFilesRestored(checked: Json, sent: Json): Json {
  for (const name in sent) {
    const value = sent[name];
    if (isFile(value) || (Array.isArray(value) && value.some(isFile))) checked[name] = value;
  }
  return checked;
}
