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
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { type AjvValidate, type EovContentType, type Json, loadEov } from "./eov-adapter.js";

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
// Bodies are read only as application/json (request-body.ts), so few distinct Content-Type
// values reach here; past this many, the stock path handles the rest.
const MAX_CONTENT_TYPE_PLANS = 16;

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

  function directPlan(route: ValidatedRoute, contentType: EovContentType, key: string) {
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

  function buildPlan(route: ValidatedRoute, contentTypeHeader: string | undefined): Plan {
    const contentType = eov.ContentType.fromString(contentTypeHeader);
    // The validator's own cache key, under which it compiles (and caches) the Ajv validators.
    const key = `${route.method}-${route.expressRoute}-${contentType.normalize() ?? "not_provided"}`;
    const stock = validator.buildMiddleware(route.expressRoute, route.operation, contentType, key);
    return { stock, direct: directPlan(route, contentType, key) };
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
    const requestBody = route.operation.requestBody as Json | null | undefined;
    if (requestBody?.content === undefined || requestBody.content === null) {
      // Without a body, the Content-Type changes nothing the validators check. (The stock path
      // would compile another copy of them for each distinct Content-Type a client sends.)
      const plan = buildPlan(route, undefined);
      return (req, res) => run(plan, req, res);
    }
    const declared = Object.keys(requestBody.content);
    const plans = new Map(declared.map((type) => [type, buildPlan(route, type)]));
    return (req, res) => {
      const header = req.headers["content-type"];
      let plan = plans.get(header ?? "");
      if (plan === undefined) {
        if (plans.size >= MAX_CONTENT_TYPE_PLANS) {
          stock(route, validator.validate.bind(validator), req, res);
          return;
        }
        plan = buildPlan(route, header);
        plans.set(header ?? "", plan);
      }
      run(plan, req, res);
    };
  }
  return { forRoute, taken };
}
