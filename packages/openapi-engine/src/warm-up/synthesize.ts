/**
 * A valid request for any operation, from the contract alone: each value from the contract's own
 * examples where it gives one, else synthesized from its schema. Warm-up sends one per operation,
 * so a contract without examples on some parameters still starts.
 *
 * Warm-up (warm-up.ts) calls `synthesizeRequest(spec, operation)` for each compiled operation at
 * start and sends the result; nothing of it runs per request.
 *
 * Where each value comes from, first found wins:
 * - a parameter: its `example`, its first `examples` entry, the same of its `content`'s media type,
 *   then its schema;
 * - the body: the chosen media type's `example`, then its first `examples` entry, then its schema;
 * - a schema: openapi-sampler (Redocly's, the sampler behind Redoc's examples): `const`, the first
 *   of `examples`, the first of `enum`, `default`, `example`, then a value built from the types,
 *   formats, bounds and patterns, the first branch of `oneOf`/`anyOf`, `allOf` merged. Only
 *   required properties are built and `readOnly` ones are left out (they are never sent), which
 *   OpenAPI asks of a request. A well-kept library chosen over a synthesizer of our own; the
 *   few cases it gets wrong (a `multipleOf`, an exclusive bound) are given an `example` first by
 *   `withNumberExamples`, so the sampler takes it.
 * - the body's media type: `application/json` if declared, else the first `+json`, form,
 *   multipart, text, then whatever is declared first (`*` in a declared range becomes a concrete
 *   type: `text/*` is sent as `text/plain`).
 *
 * Required parameters are sent, and optional ones the contract gives a value to (an example, or
 * its schema's `examples` or `default`: the call the contract shows); a declared body is always
 * sent (an optional one too: the warm-up is there to run the body's code). Values are serialized by each parameter's `style` and
 * `explode` for the common cases (path `simple`, query `form`, `deepObject`, header `simple`,
 * cookie `form`).
 *
 * @see https://spec.openapis.org/oas/v3.1.1#parameter-object
 * @see https://spec.openapis.org/oas/v3.1.1#style-values
 * @see https://spec.openapis.org/oas/v3.1.1#media-type-object
 * @see https://spec.openapis.org/oas/v3.1.1#example-object
 * @see https://spec.openapis.org/oas/v3.1.1#schema-object (readOnly, writeOnly)
 */
import { sample } from "openapi-sampler";

type JsonObject = Record<string, unknown>;

/** The parts of an operation synthesis reads (an `@animal-store/openapi` SpecOperation fits). */
export interface OperationToSynthesize {
  operationId: string;
  method: string;
  /** The path template, relative to the base path. */
  path: string;
  /** Its parameters, path-level ones merged, `$ref`s resolved. */
  parameters: readonly JsonObject[];
  /** Its request body object, `$ref` resolved. */
  requestBody: JsonObject | undefined;
}

/** A request ready to send (the fields of `@animal-store/openapi`'s ExampleRequest, and more). */
export interface SynthesizedRequest {
  operationId: string;
  method: string;
  /** Relative to the base path, query string included. */
  path: string;
  headers: Record<string, string>;
  /** The body's bytes, as its media type serializes it; undefined when the operation takes none. */
  body: string | Buffer | undefined;
  /** The body's value before serialization (for a test to validate), and its media type. */
  bodyValue?: { mediaType: string; value: unknown } | undefined;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows local `$ref`s. */
function resolve(spec: JsonObject, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string" && hops < 32; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith("#/")) return current;
    let at: unknown = spec;
    for (const raw of ref.slice(2).split("/")) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      at = isObject(at) || Array.isArray(at) ? (at as JsonObject)[key] : undefined;
    }
    current = at;
  }
  return current;
}

/** The example a parameter or media type object gives itself (`example`, then `examples`). */
function ownExample(spec: JsonObject, node: JsonObject): { value: unknown } | undefined {
  if (node.example !== undefined) return { value: node.example };
  if (isObject(node.examples)) {
    for (const raw of Object.values(node.examples)) {
      const example = resolve(spec, raw);
      if (isObject(example) && example.value !== undefined) return { value: example.value };
    }
  }
  return undefined;
}

/** Whether the contract gives a parameter a value of its own: an example, or its schema's. */
function shown(spec: JsonObject, parameter: JsonObject, media: JsonObject | undefined): boolean {
  if (ownExample(spec, parameter) !== undefined) return true;
  if (media !== undefined && ownExample(spec, media) !== undefined) return true;
  const schema = resolve(spec, media?.schema ?? parameter.schema);
  return (
    isObject(schema) &&
    (schema.default !== undefined || (Array.isArray(schema.examples) && schema.examples.length > 0))
  );
}

/**
 * A copy of `schema` in which each number openapi-sampler would get wrong (`numberExample`) is
 * given a valid `example`, which the sampler then takes.
 */
export function withNumberExamples(schema: unknown, seen = new Map<object, unknown>()): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withNumberExamples(item, seen));
  if (!isObject(schema)) return schema;
  const done = seen.get(schema);
  if (done !== undefined) return done;
  const copy: JsonObject = {};
  seen.set(schema, copy);
  for (const [key, value] of Object.entries(schema)) {
    // Values (examples, const, enum, default) are data, not schemas.
    copy[key] =
      key === "examples" ||
      key === "example" ||
      key === "const" ||
      key === "enum" ||
      key === "default"
        ? value
        : withNumberExamples(value, seen);
  }
  const example = numberExample(schema);
  if (example !== undefined) copy.example = example;
  return copy;
}

/**
 * The value openapi-sampler would get wrong for a number: one with `multipleOf` (it answers the
 * minimum itself) or an exclusive bound (it answers `floor(bound) + 1`, outside `(1.5, 2)`).
 * Undefined when the schema gives its own value, or has neither, or no value fits.
 */
function numberExample(schema: JsonObject): number | undefined {
  const numeric = schema.type === "integer" || schema.type === "number";
  const step =
    typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  const exclusiveLow =
    typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
  const exclusiveHigh =
    typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum : undefined;
  if (
    !numeric ||
    (step === undefined && exclusiveLow === undefined && exclusiveHigh === undefined)
  ) {
    return undefined;
  }
  for (const own of ["example", "examples", "const", "enum", "default"]) {
    if (schema[own] !== undefined) return undefined;
  }
  const minimum = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const maximum = typeof schema.maximum === "number" ? schema.maximum : undefined;
  const low = Math.max(
    minimum ?? Number.NEGATIVE_INFINITY,
    exclusiveLow ?? Number.NEGATIVE_INFINITY,
  );
  const high = Math.min(
    maximum ?? Number.POSITIVE_INFINITY,
    exclusiveHigh ?? Number.POSITIVE_INFINITY,
  );
  const fits = (value: number) =>
    (minimum === undefined || value >= minimum) &&
    (maximum === undefined || value <= maximum) &&
    (exclusiveLow === undefined || value > exclusiveLow) &&
    (exclusiveHigh === undefined || value < exclusiveHigh);
  const unit = step ?? (schema.type === "integer" ? 1 : undefined);
  if (unit !== undefined) {
    // The smallest multiple at or above the lower bound (0 when there is none), then the next.
    const start = Number.isFinite(low)
      ? Math.ceil(low / unit) * unit
      : Number.isFinite(high)
        ? Math.floor(high / unit) * unit
        : 0;
    for (const value of [start, start + unit, start - unit]) if (fits(value)) return value;
    return undefined;
  }
  const value =
    Number.isFinite(low) && Number.isFinite(high)
      ? (low + high) / 2
      : Number.isFinite(low)
        ? low + 1
        : high - 1;
  return fits(value) ? value : undefined;
}

/** Each contract's copy with number examples added, made once (synthesis runs at start only). */
const prepared = new WeakMap<object, object>();

/** A value valid under `schema` (its own examples first); `spec` resolves its `$ref`s. */
export function synthesizeValue(spec: JsonObject, schema: unknown): unknown {
  let document = prepared.get(spec);
  if (document === undefined) {
    document = withNumberExamples(spec) as object;
    prepared.set(spec, document);
  }
  return sample(
    withNumberExamples(schema ?? {}) as object,
    { skipReadOnly: true, skipNonRequired: true, enablePatterns: true, quiet: true },
    document,
  );
}

function text(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A parameter's value as `style`/`explode` write it: name=value pairs (query, cookie) or one text. */
function serialize(
  parameter: JsonObject,
  value: unknown,
): { pairs: Array<[string, string]>; text: string } {
  const name = String(parameter.name);
  const where = parameter.in;
  const style =
    typeof parameter.style === "string"
      ? parameter.style
      : where === "query" || where === "cookie"
        ? "form"
        : "simple";
  const explode = typeof parameter.explode === "boolean" ? parameter.explode : style === "form";
  if (Array.isArray(value)) {
    const items = value.map(text);
    if (style === "form" && explode)
      return { pairs: items.map((item) => [name, item]), text: items.join(",") };
    const joined = items.join(
      style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ",",
    );
    return { pairs: [[name, joined]], text: joined };
  }
  if (isObject(value)) {
    const entries = Object.entries(value).map(
      ([key, item]) => [key, text(item)] as [string, string],
    );
    if (style === "deepObject") {
      return { pairs: entries.map(([key, item]) => [`${name}[${key}]`, item]), text: "" };
    }
    if (style === "form" && explode)
      return { pairs: entries, text: entries.map((e) => e.join("=")).join(",") };
    const joined = entries.map((e) => e.join(explode ? "=" : ",")).join(",");
    return { pairs: [[name, joined]], text: joined };
  }
  return { pairs: [[name, text(value)]], text: text(value) };
}

const PREFERRED = [
  (type: string) => type === "application/json",
  (type: string) => /\+json(?:;|$)/.test(type),
  (type: string) => type.startsWith("application/x-www-form-urlencoded"),
  (type: string) => type.startsWith("multipart/form-data"),
  (type: string) => type.startsWith("text/"),
];

/** The body's value serialized as its media type does. */
function serializeBody(
  mediaType: string,
  value: unknown,
  boundary: string,
): { type: string; body: string | Buffer } {
  const essence = mediaType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (essence === "application/json" || essence.endsWith("+json") || essence === "*/*") {
    return {
      type: essence === "*/*" ? "application/json" : mediaType,
      body: JSON.stringify(value),
    };
  }
  if (essence === "application/x-www-form-urlencoded") {
    const form = new URLSearchParams();
    for (const [key, item] of Object.entries(isObject(value) ? value : {})) {
      for (const one of Array.isArray(item) ? item : [item]) form.append(key, text(one));
    }
    return { type: mediaType, body: form.toString() };
  }
  if (essence === "multipart/form-data") {
    const parts = Object.entries(isObject(value) ? value : {}).flatMap(([key, item]) =>
      (Array.isArray(item) ? item : [item]).map(
        (one) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${key.replace(/"/g, "%22")}"\r\n\r\n${text(one)}\r\n`,
      ),
    );
    return {
      type: `multipart/form-data; boundary=${boundary}`,
      body: `${parts.join("")}--${boundary}--\r\n`,
    };
  }
  const concrete = essence.endsWith("/*")
    ? `${essence.slice(0, -1)}${essence.startsWith("text/") ? "plain" : "octet-stream"}`
    : mediaType;
  if (essence.startsWith("text/") || essence.endsWith("+xml") || essence === "application/xml") {
    return { type: concrete, body: text(value) };
  }
  return {
    type: concrete,
    body: Buffer.isBuffer(value) ? value : Buffer.from(typeof value === "string" ? value : ""),
  };
}

/** A valid request of `operation`, from its examples or synthesized from its schemas. */
export function synthesizeRequest(
  spec: JsonObject,
  operation: OperationToSynthesize,
): SynthesizedRequest {
  let path = operation.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const raw of operation.parameters) {
    const parameter = resolve(spec, raw) as JsonObject;
    const media = isObject(parameter.content)
      ? (Object.values(parameter.content)[0] as JsonObject | undefined)
      : undefined;
    if (parameter.required !== true && parameter.in !== "path" && !shown(spec, parameter, media))
      continue;
    const value =
      ownExample(spec, parameter)?.value ??
      (media
        ? (ownExample(spec, media)?.value ?? synthesizeValue(spec, media.schema))
        : synthesizeValue(spec, parameter.schema));
    const written = media
      ? {
          pairs: [[String(parameter.name), text(value)]] as Array<[string, string]>,
          text: text(value),
        }
      : serialize(parameter, value);
    if (parameter.in === "path")
      path = path.replace(`{${String(parameter.name)}}`, encodeURIComponent(written.text));
    else if (parameter.in === "query")
      for (const [key, item] of written.pairs) query.append(key, item);
    else if (parameter.in === "header")
      headers[String(parameter.name).toLowerCase()] = written.text;
    else if (parameter.in === "cookie")
      for (const [key, item] of written.pairs) cookies.push(`${key}=${encodeURIComponent(item)}`);
  }
  if (cookies.length > 0) headers.cookie = cookies.join("; ");
  let body: string | Buffer | undefined;
  let bodyValue: SynthesizedRequest["bodyValue"];
  const content = isObject(operation.requestBody?.content)
    ? (operation.requestBody.content as JsonObject)
    : undefined;
  if (content !== undefined && Object.keys(content).length > 0) {
    const types = Object.keys(content);
    const mediaType =
      PREFERRED.map((wanted) => types.find((type) => wanted(type.toLowerCase()))).find(
        (type) => type !== undefined,
      ) ?? (types[0] as string);
    const media = (resolve(spec, content[mediaType]) ?? {}) as JsonObject;
    const value = ownExample(spec, media)?.value ?? synthesizeValue(spec, media.schema);
    const written = serializeBody(mediaType, value, `synthesized-${operation.operationId}`);
    headers["content-type"] = written.type;
    body = written.body;
    bodyValue = { mediaType, value };
  }
  const search = query.toString();
  return {
    operationId: operation.operationId,
    method: operation.method,
    path: `${path}${search ? `?${search}` : ""}`,
    headers,
    body,
    bodyValue,
  };
}
