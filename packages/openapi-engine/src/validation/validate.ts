/**
 * Request validation, one road for every request of an operation: the query parsed once (the
 * app's query parser), the path values decoded, integer parameters held to decimal digits, then
 * the operation's validators, compiled at start by express-openapi-validator (its modules through
 * eov-adapter.ts), and numbers the validator coerced to ±Infinity refused. Parameters are coerced
 * to their schema types and defaults filled in, in place, so handlers get them once; each failure
 * is the engine's 400 (validator-errors.ts converts the validator's).
 *
 * The validator's own per-route middleware re-derives on every request what never changes for
 * the route (a Content-Type cache key, a parameter mutator that dereferences and normalizes every
 * parameter again, the legacy `url.parse` of the URL, the set of known query names). Here that is
 * done once per route, and per request only its checks run: the validator's parameter mutator
 * where it has something to reshape, the known-name check, the compiled Ajv validators, and its
 * error helpers. validate-corpus.test.ts sends a corpus of requests, on a spec with every
 * parameter style, through this and through the validator's stock middleware, and requires the
 * same outcome for each.
 */
import { parse } from "node:querystring";
import { deref, type OpenApiDocument, type SpecOperation } from "@animal-store/openapi";
import { parse as parseCookies } from "cookie";
import type { Request, Response } from "express";
import { bareClass } from "../bare-objects.js";
import { engineErrors } from "../errors.js";
import { step } from "../lifecycle/lifecycle.js";
import type { BodyLocals } from "../request-body/body-step.js";
import { bodyFamily, type UploadedFile } from "../request-body/media-types.js";
import {
  type AjvValidate,
  type EovParameterMutator,
  type EovRequestValidator,
  type Json,
  loadEov,
} from "./eov-adapter.js";
import { fromValidator } from "./validator-errors.js";

// ─── The query: parsed once, by the app's query parser ─────────────────────────────────────────

/*
 * The query of a request as Express 5's default ("simple") query parser reads it, without its
 * decoding work when there is nothing to decode: the app's query parser (Express's public
 * `query parser` setting), so Express's `req.query` getter calls it.
 *
 * `querystring.parse` checks every character of every key and value for `%` and `+`. A query
 * made only of unreserved characters, `=` and `&` (`limit=20`, `status=sold&limit=10`) decodes to
 * itself, so here it is only split, into the same object `querystring.parse` builds: nothing
 * inherited (see Query), a repeated name as an array in order, a name without `=` as "", empty
 * pairs skipped, at most 1000 pairs. Anything else (an escape, `+`, more pairs) goes to
 * `querystring.parse`, so the result is always the one Express's default parser would give
 * (validate-query.test.ts compares them).
 */
// Unreserved characters (RFC 3986) and the two separators: nothing here is decoded or treated
// specially by parseurl or querystring.
const PLAIN = /^[A-Za-z0-9._~=&-]*$/;
// querystring.parse's default maxKeys: pairs after it are ignored.
const MAX_PAIRS = 1000;

/**
 * The query object: no property inherited, as querystring.parse's, and fast properties for the
 * later reads of it (validation's coercion, the handler's destructuring): see bare-objects.ts.
 */
const Query = bareClass<Record<string, string | string[]>>(function Query() {});

/** `querystring.parse(text)` for a `text` made only of PLAIN characters; undefined past MAX_PAIRS. */
export function splitPlainQuery(text: string): Record<string, string | string[]> | undefined {
  const query = new Query();
  const end = text.length;
  let start = 0;
  let pairs = 0;
  while (start < end) {
    if (++pairs > MAX_PAIRS) return undefined;
    let amp = text.indexOf("&", start);
    if (amp === -1) amp = end;
    if (amp > start) {
      const eq = text.indexOf("=", start);
      const named = eq === -1 || eq > amp;
      const key = text.slice(start, named ? amp : eq);
      const value = named ? "" : text.slice(eq + 1, amp);
      const prior = query[key];
      if (prior === undefined) query[key] = value;
      else if (typeof prior === "string") query[key] = [prior, value];
      else prior.push(value);
    }
    start = amp + 1;
  }
  return query;
}

/**
 * The app's query parser (`app.set("query parser", parseQuery)`, Express's public setting): what
 * Express's default ("simple") parser, `querystring.parse`, gives, split directly when the query
 * is plain. Express's `req.query` getter calls it with the query string parseurl found.
 */
export function parseQuery(text: string | null | undefined): Record<string, unknown> {
  if (typeof text !== "string") return new Query();
  return (PLAIN.test(text) ? splitPlainQuery(text) : undefined) ?? parse(text);
}

// ─── Request validation: the operation's compiled validators, one road ─────────────────────────

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
   * What the validator's parameter mutator reads on `req.openapi` (its route lookup's result,
   * `pathParams` aside): set on a request only when the mutator runs.
   */
  metadata: Record<string, unknown>;
}

/**
 * Everything one request of a route needs, for one declared media type of its body (or none),
 * built at start.
 */
interface Plan {
  general: AjvValidate;
  body: AjvValidate;
  /**
   * The validator's parameter mutator of the route, run for a request only where it has
   * something to do (`reshapes`, or a bracketed query name): see `shape`.
   */
  mutator: EovParameterMutator;
  /** Some parameter is one the mutator reshapes (not a plain string, number, integer, boolean). */
  reshapes: boolean;
  /** The query names a request may carry; undefined: any (unknown names allowed). */
  knownQuery: Set<string> | undefined;
  /** The query names that may be empty. */
  allowEmpty: ReadonlySet<string>;
  /** A multipart body: object and array fields arrive as JSON text (the validator's rule). */
  multipart: boolean;
  /** The validator's discriminator of a `oneOf` body with a `discriminator`. */
  discriminator: Json | undefined;
  by: EovRequestValidator;
}

const PRIMITIVE_TYPES = new Set(["string", "number", "integer", "boolean"]);

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
 * The query names a request of the route may carry (the validator's rule: its declared query
 * parameters and the apiKey-in-query names of its security), or undefined when any may be sent:
 * unknown names allowed by the route or the options, or an object parameter with
 * `additionalProperties`.
 */
function knownQueryNames(
  apiDoc: Json,
  route: ValidatedRoute,
  query: Json | undefined,
  allowUnknown: boolean,
): Set<string> | undefined {
  if (allowUnknown) return undefined;
  const known = new Set(securityQueryParameters(apiDoc, route.operation));
  for (const [name, schema] of Object.entries((query?.properties ?? {}) as Record<string, Json>)) {
    if (schema.type === "object" && schema.additionalProperties) return undefined;
    known.add(name);
  }
  return known;
}

/**
 * Builds request validation for each route from the validator's RequestValidator over `apiDoc`
 * (loaded and preprocessed as the validator's middleware does) with its request Ajv options.
 * `forRoute` makes a route's validator, compiling its Ajv validators now.
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

  /** The plan of requests whose body is of the declared media type `mediaKey` (none: no body). */
  function buildPlan(route: ValidatedRoute, mediaKey: string | undefined): Plan {
    const { operation, expressRoute } = route;
    const contentType = eov.ContentType.fromString(mediaKey);
    const family = mediaKey === undefined ? undefined : bodyFamily(contentType.mediaType ?? "");
    const by = family === "form" || family === "multipart" ? coercing() : validator;
    // The validator's own cache key, under which it compiles (and caches) the route's two Ajv
    // validators: its middleware builder compiles them; the closure it returns is not used.
    const key = `${route.method}-${expressRoute}-${contentType.normalize() ?? "not_provided"}`;
    by.buildMiddleware(expressRoute, operation, contentType, key);
    const general = by.ajv.getSchema(key);
    const body = by.ajvBody.getSchema(key);
    if (general === undefined || body === undefined) {
      throw new Error(`express-openapi-validator compiled no validators for ${key}`);
    }
    // The schemas the validators were compiled from: the parameters by where they are (query,
    // headers, params, cookies) and the body, as the validator's mutator and checks read them.
    const properties = {
      ...((general.schema as Json).properties as Json),
      body: ((body.schema as Json).properties as Json).body,
    } as Json;
    let reshapes = false;
    for (const reference of (operation.parameters as Json[] | undefined) ?? []) {
      const parameter = eov.dereferenceParameter(apiDoc, reference);
      const { schema } = eov.normalizeParameter(by.ajv, parameter);
      const plain =
        parameter.content === undefined &&
        PRIMITIVE_TYPES.has(schema.type as string) &&
        schema.allOf === undefined &&
        schema.oneOf === undefined &&
        schema.anyOf === undefined;
      if (!plain) reshapes = true;
    }
    const allowUnknown = Boolean(
      operation["x-eov-allow-unknown-query-parameters"] ??
        operation["x-allow-unknown-query-parameters"] ??
        by.requestOpts.allowUnknownQueryParameters,
    );
    const query = properties.query as Json | undefined;
    return {
      general,
      body,
      mutator: new eov.RequestParameterMutator(by.ajv, apiDoc, expressRoute, properties),
      reshapes,
      knownQuery: knownQueryNames(apiDoc, route, query, allowUnknown),
      allowEmpty: (query?.allowEmptyValue as Set<string> | undefined) ?? new Set(),
      multipart: contentType.mediaType === "multipart/form-data",
      discriminator: (properties.body as Json | undefined)?._discriminator as Json | undefined,
      by,
    };
  }

  /**
   * Runs the validator's parameter mutator (arrays, objects, `content` parameters, bracket
   * notation: `filter[color]=red`) when the request has something for it: a reshaped parameter,
   * or a bracketed query name. For a route of plain parameters a bracketed name is all it
   * changes: each of its other steps leaves a plain parameter as it is (every query parameter is
   * loaded with `allowReserved`, compile.ts).
   */
  function shape(plan: Plan, route: ValidatedRoute, req: Request): void {
    if (!plan.reshapes) {
      let bracketed = false;
      for (const name in req.query as Record<string, unknown>) {
        if (name.includes("[")) {
          bracketed = true;
          break;
        }
      }
      if (!bracketed) return;
    }
    (req as Request & { openapi: unknown }).openapi = { ...route.metadata, pathParams: req.params };
    plan.mutator.modifyRequest(req);
  }

  /** The validator's 400 for a query name it does not take, or an empty value it does not allow. */
  function checkQueryNames(plan: Plan, query: Record<string, unknown>): void {
    const { knownQuery, allowEmpty } = plan;
    if (knownQuery === undefined) return;
    for (const name in query) {
      if (!knownQuery.has(name)) {
        throw new eov.BadRequest({
          path: `/query/${name}`,
          message: `Unknown query parameter '${name}'`,
        });
      }
      if (query[name] === "" && !allowEmpty.has(name)) {
        throw new eov.BadRequest({
          path: `/query/${name}`,
          message: `Empty value found for query parameter '${name}'`,
        });
      }
    }
  }

  /** Validates `req` by `plan`: returns when it is valid, throws the validator's error if not. */
  function validate(plan: Plan, route: ValidatedRoute, req: Request): void {
    shape(plan, route, req);
    const query = req.query as Record<string, unknown>;
    checkQueryNames(plan, query);
    if (plan.multipart) {
      req.body ??= {};
      plan.by.multipartNested(req, plan.body.schema);
    }
    const { cookies, signedCookies } = req as Request & { cookies?: Json; signedCookies?: Json };
    const data = {
      query,
      headers: req.headers,
      params: req.params,
      cookies: cookies ? { ...cookies, ...signedCookies } : undefined,
      body: req.body as unknown,
    };
    const byDiscriminator =
      plan.discriminator === undefined
        ? undefined
        : (plan.by.discriminatorValidator(req, plan.discriminator) ?? undefined);
    const bodyValidate = byDiscriminator ?? plan.body;
    // Both run, as in the validator, so both error lists are this request's.
    const valid = plan.general(data);
    const validBody = bodyValidate(byDiscriminator === undefined ? data : data.body);
    if (valid && validBody) return;
    const errors = eov.augmentAjvErrors([
      ...(plan.general.errors ?? []),
      ...(bodyValidate.errors ?? []),
    ]);
    const error = new eov.BadRequest({
      path: req.path,
      message: validator.ajv.errorsText(errors, { dataVar: "request" }),
    });
    error.errors = eov.ajvErrorsToValidatorError(400, errors).errors;
    throw error;
  }

  /** The request validator of `route`, its validators compiled now. */
  function forRoute(route: ValidatedRoute): RequestValidator {
    const cookies = declaresCookies(apiDoc, route.operation);
    const requestBody = route.operation.requestBody as Json | null | undefined;
    const content = requestBody?.content as Json | null | undefined;
    if (content === undefined || content === null) {
      // Without a body, one plan (and the cookies parsed only where a parameter is a cookie).
      const plan = buildPlan(route, undefined);
      if (!cookies) return (req) => validate(plan, route, req);
      return (req) => {
        withCookies(req);
        validate(plan, route, req);
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
        validate(plan, route, req);
        return;
      }
      // Bytes are checked as text of one character per byte (so `maxLength` counts bytes), then
      // handed to the handler as they came: a Buffer, and each file part an UploadedFile.
      const sent = req.body as Buffer | Record<string, unknown>;
      req.body =
        family === "binary" ? (sent as Buffer).toString("latin1") : withFilesAsText(sent as Json);
      validate(plan, route, req);
      req.body = family === "binary" ? sent : withFilesRestored(req.body as Json, sent as Json);
    };
  }
  return { forRoute };
}

// ─── The strict-integer rule ─────────────────────────────────────────────────────────────────────

/*
 * The strict-integer rule, the project's choice, in one place: which parameters it covers (the
 * integer parameters of each operation's path and query, compiled once with the contract) and
 * what it accepts (decimal digits), checked by the validation step below on every request before
 * the validator coerces the text away.
 */

/** The names of an operation's integer parameters, by where they are. */
export interface IntegerParameters {
  query: string[];
  path: string[];
}

function isInteger(spec: OpenApiDocument, schema: unknown): boolean {
  const type = deref<{ type?: unknown }>(spec, schema).type;
  return type === "integer" || (Array.isArray(type) && type.includes("integer"));
}

/** The integer parameters of `operation`'s query and path. */
export function integerParameters(
  spec: OpenApiDocument,
  operation: Pick<SpecOperation, "parameters">,
): IntegerParameters {
  const names = (where: string) =>
    operation.parameters
      .filter((p) => p.in === where && p.schema !== undefined && isInteger(spec, p.schema))
      .map((p) => String(p.name));
  return { query: names("query"), path: names("path") };
}

/**
 * Integers in a URL are decimal digits. The validator coerces parameters with JavaScript's
 * number syntax, so `0x10` became 16, `1e2` 100, `+1` and ` 5` (`%205`) 1 and 5: a client's
 * typo or a probe answered as if it were a number. Before the validator runs, every integer
 * parameter of the path and query must be decimal digits without a leading zero (`0` itself
 * aside), with a minus sign only before a nonzero value; anything else is a 400 naming it.
 */
const DECIMAL = /^(?:0|-?[1-9][0-9]*)$/;

/** The first of `names` whose value in `values` would be coerced to an integer, yet is not decimal. */
export function firstLooseInteger(
  values: Record<string, unknown>,
  names: readonly string[],
): string | undefined {
  for (const name of names) {
    const value = values[name];
    // What is no number at all ("abc", "1.5") is left to the validator's own message.
    if (typeof value === "string" && !DECIMAL.test(value) && Number.isInteger(Number(value))) {
      return name;
    }
  }
  return undefined;
}

// ─── The validation step ───────────────────────────────────────────────────────────────────────

/** What the validation step reads: the operation's path parameter names and its validator. */
export interface ValidationNeeds {
  operation: { names: string[]; integers: IntegerParameters; validateRequest: RequestValidator };
}

/** Validates the request against its operation; the handler then reads what it leaves. */
export const validateRequest = step<ValidationNeeds>(function validateRequest(req, res, next) {
  const { operation } = res.locals;
  const params = req.params as Record<string, unknown>;
  for (const name of operation.names) {
    try {
      params[name] = decodeURIComponent(params[name] as string);
    } catch {
      next(engineErrors.badPathEscape(name));
      return;
    }
  }
  // Express 5's req.query is a getter that parses the query string on every read (with the
  // app's parser, parseQuery above): read once here and pinned, writable, so the checks below,
  // the validator's mutator (which reshapes it in place) and the handler share one parse.
  const query = req.query as Record<string, unknown>;
  Object.defineProperty(req, "query", {
    configurable: true,
    enumerable: true,
    writable: true,
    value: query,
  });
  const looseInPath = firstLooseInteger(params, operation.integers.path);
  const loose = looseInPath ?? firstLooseInteger(query, operation.integers.query);
  if (loose !== undefined) {
    next(engineErrors.looseInteger(looseInPath === undefined ? "query" : "params", loose));
    return;
  }
  try {
    operation.validateRequest(req, res);
  } catch (err) {
    next(fromValidator(err));
    return;
  }
  // The validator's mutator may have replaced the object.
  const inQuery = firstNonFinite(req.query as Record<string, unknown>);
  const inPath = inQuery ?? firstNonFinite(params);
  if (inPath !== undefined) {
    next(engineErrors.nonFiniteNumber(inQuery === undefined ? "path" : "query", inPath));
    return;
  }
  next();
});

/**
 * express-openapi-validator coerces "Infinity", "-Infinity" and "1e400" in integer parameters to
 * ±Infinity and lets them past `minimum`/`maximum`; every numeric parameter of the contract is
 * bounded, so a non-finite number is refused right after the validator, with the 400 the
 * validator should have given (instead of a database error and a 500).
 *
 * The name of the first non-finite number among `values`' own properties, or undefined.
 */
export function firstNonFinite(values: Record<string, unknown> | undefined): string | undefined {
  // for...in without allocating: this runs on every request.
  for (const name in values) {
    const value = values[name];
    if (typeof value === "number" && !Number.isFinite(value)) return name;
  }
  return undefined;
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
