// @ts-check
// Answers from the contract alone, as Prism gives them: an operation's documented status with
// its example, or data synthesized from its schema (openapi-sampler, the sampler the engine's
// warm-up uses), and its documented headers. `Prefer` (Prism's syntax: `code=404`,
// `example=<name>`, `dynamic=true`) chooses among them. What each operation can answer is read
// once at start; a request only picks.
//
// @see https://docs.stoplight.io/docs/prism/docs/guides/01-mocking.md (Prefer)
// @see https://spec.openapis.org/oas/v3.1.1#example-object
import { deref, documentedResponses, isJsonObject, responseForStatus } from "@animal-store/openapi";
import { EngineError } from "@animal-store/openapi-engine";
import { sample } from "openapi-sampler";
import { jsonMediaOf } from "./resources.mjs";

/**
 * @typedef {Record<string, any>} Json
 * @typedef {import("@animal-store/openapi").OpenApiDocument} OpenApiDocument
 * @typedef {import("@animal-store/openapi").SpecOperation} SpecOperation
 * @typedef {{ code?: number, example?: string, dynamic?: boolean }} Preference
 * @typedef {{ status: number, body: unknown, headers: Record<string, string> }} Answer
 */

/**
 * What a `Prefer` header asks of the mock: Prism's `code`, `example` and `dynamic`, separated
 * by commas or semicolons; anything else in it is not the mock's business and is ignored.
 * @param {string | string[] | undefined} header
 * @returns {Preference}
 */
export function parsePrefer(header) {
  /** @type {Preference} */
  const preference = {};
  const text = Array.isArray(header) ? header.join(",") : (header ?? "");
  for (const part of text.split(/[,;]/)) {
    const match = /^\s*([a-zA-Z]+)\s*=\s*"?([^"]*)"?\s*$/.exec(part);
    if (!match) continue;
    const [, name = "", value = ""] = match;
    if (name === "code" && /^[1-5]\d\d$/.test(value)) preference.code = Number(value);
    else if (name === "example" && value !== "") preference.example = value;
    else if (name === "dynamic") preference.dynamic = value === "true";
  }
  return preference;
}

/** Whether a preference asks for a documented answer rather than what the request causes. */
export function choosesAnswer(/** @type {Preference} */ preference) {
  return (
    preference.code !== undefined || preference.example !== undefined || preference.dynamic === true
  );
}

/** A value for `schema` (the contract's own example first, else built from the types). */
export function synthesize(/** @type {OpenApiDocument} */ spec, /** @type {unknown} */ schema) {
  if (!isJsonObject(schema)) return undefined;
  return sample(
    /** @type {any} */ (schema),
    { skipReadOnly: false, skipWriteOnly: true, quiet: true },
    spec,
  );
}

/**
 * `count` objects synthesized from an object schema, each enum property cycling its values (so
 * every value of a filter finds some).
 * @param {OpenApiDocument} spec
 * @param {Json} schema
 * @param {number} count
 * @returns {Json[]}
 */
export function synthesizedObjects(spec, schema, count) {
  const base = /** @type {Json} */ (synthesize(spec, schema) ?? {});
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const enums = Object.entries(properties)
    .map(([name, raw]) => /** @type {[string, unknown[]]} */ ([name, deref(spec, raw)?.enum]))
    .filter(([, values]) => Array.isArray(values) && values.length > 0);
  return Array.from({ length: count }, (_, i) => {
    const item = { ...base };
    for (const [name, values] of enums) item[name] = values[i % values.length];
    return item;
  });
}

/** The named examples of a media type, `$ref`s resolved, in the contract's order. */
function namedExamples(/** @type {OpenApiDocument} */ spec, /** @type {Json | undefined} */ media) {
  const examples = isJsonObject(media?.examples) ? media.examples : {};
  return new Map(Object.entries(examples).map(([name, raw]) => [name, deref(spec, raw)?.value]));
}

/** The first example a media type gives: its first named example, `example`, or the schema's. */
function firstExampleOf(
  /** @type {OpenApiDocument} */ spec,
  /** @type {Json | undefined} */ media,
) {
  const [first] = namedExamples(spec, media).values();
  if (first !== undefined) return { value: first };
  if (media?.example !== undefined) return { value: media.example };
  const schema = deref(spec, media?.schema);
  if (Array.isArray(schema?.examples) && schema.examples.length > 0)
    return { value: schema.examples[0] };
  return undefined;
}

/** A header's value as it goes on the wire. */
function headerText(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return value.map(String).join(", ");
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * The documented headers of a response the mock can fill: those with an example, and the
 * required ones (synthesized), each with its value. The engine's own headers (rate limits, the
 * request id, deprecation) are set before a handler runs; `answer` leaves those alone.
 */
function headersOf(/** @type {OpenApiDocument} */ spec, /** @type {Json} */ rawResponse) {
  const response = deref(spec, rawResponse);
  const headers = isJsonObject(response?.headers) ? response.headers : {};
  /** @type {Record<string, string>} */
  const values = {};
  for (const [name, raw] of Object.entries(headers)) {
    const header = deref(spec, raw);
    const example = firstExampleOf(spec, header)?.value ?? deref(spec, header?.schema)?.example;
    if (example !== undefined) values[name] = headerText(example);
    else if (header?.required === true) values[name] = headerText(synthesize(spec, header.schema));
  }
  return values;
}

/**
 * Compiles what `op` can answer from its contract; `answer(preference)` picks one: the status
 * `code` asks for (else the first documented success), the example `example` names (else the
 * first, else data synthesized from the schema; always synthesized with `dynamic=true`).
 * @param {OpenApiDocument} spec
 * @param {SpecOperation} op
 */
export function compileStaticAnswers(spec, op) {
  const responses = documentedResponses(spec, op);
  const rawResponses = /** @type {Json} */ (op.operation.responses ?? {});
  const numbered = responses.filter((r) => /^\d{3}$/.test(r.status));
  const preferred = numbered.find((r) => /^2\d\d$/.test(r.status)) ?? numbered[0] ?? responses[0];
  const headers = new Map(responses.map((r) => [r, headersOf(spec, rawResponses[r.status])]));
  const statuses = responses.map((r) => r.status).join(", ");

  /** @returns {Answer} */
  function answer(/** @type {Preference} */ preference = {}) {
    const response =
      preference.code === undefined ? preferred : responseForStatus(responses, preference.code);
    if (!response) {
      throw new EngineError(
        "validation_failed",
        `Prefer: code=${preference.code} is not documented for ${op.operationId} (documented: ${statuses || "none"})`,
      );
    }
    const status =
      preference.code ?? (/^\d{3}$/.test(response.status) ? Number(response.status) : 200);
    const media = jsonMediaOf(response.content)?.media;
    let body;
    if (media && preference.example !== undefined) {
      const named = namedExamples(spec, media);
      if (!named.has(preference.example)) {
        const known = [...named.keys()].join(", ") || "none";
        throw new EngineError(
          "validation_failed",
          `Prefer: example=${preference.example} is not an example of ${op.operationId}'s ${status} (examples: ${known})`,
        );
      }
      body = named.get(preference.example);
    } else if (media) {
      const example = preference.dynamic ? undefined : firstExampleOf(spec, media);
      body = example ? example.value : synthesize(spec, deref(spec, media.schema));
    } else if (response.content !== undefined && Object.keys(response.content).length > 0) {
      // A type other than JSON (a PDF, CSV, an image): the first declared type's example as
      // text, else no bytes; the engine writes it in the negotiated declared type.
      const [other] = Object.values(response.content);
      const example = /** @type {Json | undefined} */ (other)?.example;
      body = Buffer.from(typeof example === "string" ? example : "");
    }
    return { status, body, headers: headers.get(response) ?? {} };
  }
  return {
    answer,
    documents: (/** @type {number} */ status) => responseForStatus(responses, status) !== undefined,
  };
}
