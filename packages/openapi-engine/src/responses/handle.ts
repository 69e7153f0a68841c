/**
 * The last step of an operation's lifecycle: calls its handler and writes the answer. Without
 * response validation (production) the body is written by the serializer compiled for its
 * documented response; with it, the answer's status, required headers and body are checked
 * against the contract first (a violation is a bug: logged, answered 500) and the body is written
 * with JSON.stringify. Either way the bytes on the wire are the same (tested). A body the handler
 * gives as JSON text (`JsonText`) is written as it is, after the same checks when they run.
 *
 * What the body is written as follows its documented response (`AnswerBody`, below): a
 * response declared without content is sent with no body and no `Content-Type`; one declared as
 * `application/json` alone takes the JSON road above; any other is written in the type `Accept`
 * chose among the declared ones: JSON types as JSON, other types from the handler's Buffer,
 * stream or text, with `Vary: Accept` where more than one type was declared.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#response-object
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-12.5.5 (Vary)
 */
import { Readable } from "node:stream";
import {
  deref,
  negotiatesContent,
  type OpenApiDocument,
  responseForStatus,
} from "@animal-store/openapi";
import type { Ajv } from "ajv";
import type { Request, Response } from "express";
import type { Caller, CallerLocals } from "../auth/security.js";
import type { ServedOperation } from "../contract/contract.js";
import { engineErrors } from "../errors.js";
import { type RequestLocals, setEngineHeader } from "../express-messages.js";
import { step } from "../lifecycle/lifecycle.js";
import {
  compileHeaderChecks,
  type HeaderCheck,
  type HeaderReader,
  headerViolations,
} from "./header-checks.js";
import { type AnswerType, compileAnswerTypes } from "./negotiate.js";
import { compileSerializer, type Serializer } from "./serializers.js";

// ─── The documented answers, compiled ──────────────────────────────────────────────────────────

/*
 * An operation's documented answers, compiled once: for each documented response, its serializer
 * (production) or the checks of its required headers and its body (development and tests). An
 * answer's status selects its documented response as OpenAPI does: the exact code, else its
 * class (`4XX`), else `default`; the selection is cached per status, so a request looks up a
 * number, never builds a key.
 *
 * @see https://spec.openapis.org/oas/v3.1.0#responses-object
 */
/**
 * What an answer's body is written as, decided from its documented response's `content`:
 * - `none`: declared without content (204, 304, or any status declared so): no body and no
 *   `Content-Type`;
 * - `json`: declared as `application/json` alone, written as JSON whatever `Accept` says (the
 *   road every JSON-only API takes, no negotiation on it);
 * - `negotiated`: any other declaration: the type is chosen by `Accept` among the declared ones
 *   (negotiate.ts), a JSON type written as JSON, any other written as the handler's Buffer,
 *   stream or text.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#response-object
 */
export type AnswerBody = "none" | "json" | "negotiated";

/** One documented response of an operation, compiled. */
export interface CompiledAnswer {
  /** As documented: `"200"`, `"4XX"`, `"default"`. */
  documented: string;
  body: AnswerBody;
  /** Writes a body of its JSON schema; undefined without one, or when answers are checked instead. */
  serialize: Serializer | undefined;
  /** The headers it requires, each with its check; empty unless answers are checked. */
  requiredHeaders: HeaderCheck[];
}

/** Whether a media type is written as JSON (`application/json` and the `+json` types, RFC 6839). */
export function isJsonType(mediaType: string): boolean {
  const essence = mediaType.split(";")[0]?.trim().toLowerCase() ?? "";
  return essence === "application/json" || essence.endsWith("+json");
}

/** The compiled answers of one operation. */
export interface CompiledAnswers {
  /**
   * Whether the operation negotiates its answers by `Accept` (it declares a success type other
   * than `application/json`); only then is `acceptable` asked, before the handler runs.
   */
  negotiates: boolean;
  /**
   * Whether any of the operation's success types is acceptable to `accept`; the declared types
   * when none is (for the 406), else undefined.
   */
  unacceptable(accept: string | undefined): readonly string[] | undefined;
  /** The type an answer of `status` is written in (`negotiated` answers only). */
  answerType(status: number, accept: string | undefined): AnswerType;
  /** The documented response that answers `status`; undefined when none does. */
  forStatus(status: number): CompiledAnswer | undefined;
  /**
   * What is wrong with answering `status` with these headers and `body` (checked answers only):
   * an undocumented status, a missing or invalid required header, a body off its schema (a JSON
   * body only: `checkBody` false for a body written in another type, or none).
   */
  violations(status: number, header: HeaderReader, body: unknown, checkBody?: boolean): string[];
}

/** How answers are compiled: serialized (production) or checked (responses validated). */
export type AnswerMode =
  | { serialize: true }
  | {
      serialize: false;
      ajv: Ajv;
      checkBody: ((status: number, body: unknown) => void) | undefined;
    };

/** Compiles the answers of `operation`. */
export function compileAnswers(
  spec: OpenApiDocument,
  operation: ServedOperation,
  mode: AnswerMode,
): CompiledAnswers {
  const compiled = new Map<string, CompiledAnswer>(
    operation.responses.map((response) => {
      const types = Object.keys(response.content);
      const body: AnswerBody =
        types.length === 0
          ? "none"
          : types.length === 1 && types[0] === "application/json"
            ? "json"
            : "negotiated";
      const jsonType = types.find(isJsonType);
      return [
        response.status,
        {
          documented: response.status,
          body,
          serialize:
            mode.serialize && jsonType !== undefined
              ? compileSerializer(spec, response, jsonType)
              : undefined,
          requiredHeaders: mode.serialize ? [] : compileHeaderChecks(mode.ajv, spec, response),
        },
      ];
    }),
  );
  const types = compileAnswerTypes(operation.operation.responses, (node) => deref(spec, node));
  const negotiates = negotiatesContent(operation);
  // The operation's success types as one response, for the check made before the handler runs.
  const success = compileAnswerTypes({
    "200": { content: Object.fromEntries(operation.successMediaTypes.map((t) => [t, {}])) },
  });
  const byStatus = new Map<number, CompiledAnswer | undefined>();
  const forStatus = (status: number): CompiledAnswer | undefined => {
    if (byStatus.has(status)) return byStatus.get(status);
    const documented = responseForStatus(operation.responses, status)?.status;
    const answer = documented === undefined ? undefined : compiled.get(documented);
    byStatus.set(status, answer);
    return answer;
  };
  return {
    negotiates,
    unacceptable(accept) {
      const decided = success.answerType(200, accept);
      return "notAcceptable" in decided ? decided.available : undefined;
    },
    answerType: types.answerType,
    forStatus,
    violations(status, header, body, checkBody = true) {
      const where = `${operation.operationId} ${status}`;
      const answer = forStatus(status);
      if (answer === undefined)
        return [`${operation.operationId} does not document status ${status}`];
      if (mode.serialize) return [];
      const found = headerViolations(mode.ajv, answer.requiredHeaders, header, where);
      if (!checkBody) return found;
      try {
        mode.checkBody?.(status, body);
      } catch (err) {
        found.push(`${where} body: ${(err as Error).message}`);
      }
      return found;
    },
  };
}

// ─── The handler and its answer ─────────────────────────────────────────────────────────────────

/** A handler as the engine calls it; the application's typed handlers are these at run time. */
export type AnyHandler = (request: {
  query: unknown;
  params: unknown;
  body: unknown;
  caller: Caller;
  requestId: string;
  reply: typeof reply;
  mediaType: ((status: number) => string | undefined) | undefined;
}) => Promise<unknown>;

/** What a handler's `reply` builds. */
interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string> | undefined;
}

/** The runtime side of `reply`: the types did the checking. */
const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body,
  headers,
});

/**
 * A body the application already holds as JSON text. A database can write a page of rows as the
 * JSON the API answers faster than the rows can be read into objects and serialized again; the
 * handler then answers `reply(200, new JsonText(text))`, typed as the body it stands for.
 *
 * The engine writes the text as it is. Without response validation (production) it is not
 * serialized again; with it, the text is parsed and checked against the contract like any other
 * answer (a violation is answered 500), then written as it is. What the engine cannot check in
 * production, the application vouches for: the text is what the operation's serializer would
 * have written for the same data (the Animal Store's store tests compare the two byte for byte).
 */
export class JsonText<Body = unknown> {
  /**
   * Private, and no public member at all: the class is nominal (no object literal passes for
   * one), and a body literal with an extra property cannot slip past the exact check of the
   * handler types by naming a member of this class.
   */
  readonly #text: string;
  /** Never set: only ties the text to the body type it stands for. */
  declare private readonly stands?: Body;

  constructor(text: string) {
    this.#text = text;
  }

  /** The JSON text of `body`. */
  static textOf(body: JsonText): string {
    return body.#text;
  }
}

/** What the handle step reads of the operation. */
export interface HandledOperation {
  operationId: string;
  method: string;
  path: string;
  answers: CompiledAnswers;
  /** Undefined when the application has none (reported at start): a 500 `not_implemented`. */
  handler: AnyHandler | undefined;
}

/** An answer that breaks the contract (development and tests): logged, answered with 500. */
export class ResponseContractError extends Error {
  constructor(readonly violations: string[]) {
    super(`the response breaks the contract: ${violations.join("; ")}`);
    this.name = "ResponseContractError";
  }
}

/**
 * Sets a handler's headers. A `Link` already set (a deprecated operation's successor link) is
 * kept and the handler's links are added to it: RFC 8288 lets one field carry several links, and
 * a page of a deprecated list needs both its `next` and its `successor-version`.
 */
function setHandlerHeaders(res: Response, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    const before = name.toLowerCase() === "link" ? res.getHeader(name) : undefined;
    res.setHeader(name, before === undefined ? value : `${String(before)}, ${value}`);
  }
}

/** Writes `text` as the JSON answer with `status` and the handler's own headers. */
function send(res: Response, { status, headers }: Reply, text: string, headersSet: boolean): void {
  res.statusCode = status;
  if (headers && !headersSet) setHandlerHeaders(res, headers);
  setEngineHeader(res, "content-type", "Content-Type", "application/json; charset=utf-8");
  setEngineHeader(res, "content-length", "Content-Length", Buffer.byteLength(text));
  // The head written first, as `end` would write it: `end` given a string before the head
  // measures the string's bytes again, which on a page of 100 items is not free.
  res.writeHead(status);
  res.end(text);
}

/** What a handler's JSON text parses to, or the violation of text that is not JSON at all. */
function parsed(text: string): { value: unknown } | { violation: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { violation: `the body's JSON text is not JSON: ${(err as Error).message}` };
  }
}

/**
 * Before the handler of an operation that negotiates its answers (one declaring a success type
 * other than `application/json`): 406 `not_acceptable` when `Accept` admits none of its success
 * types. Checked before the handler runs, so a refused request has changed nothing. Left out of
 * the lifecycle of every other operation, which disregards `Accept` (RFC 9110 section 12.5.1).
 */
export const refuseUnacceptable = step<{ operation: HandledOperation }>(
  function refuseUnacceptable(req, res, next) {
    const available = res.locals.operation.answers.unacceptable(req.headers.accept);
    if (available === undefined) next();
    else {
      res.vary("Accept");
      next(engineErrors.notAcceptable(available));
    }
  },
);

/** Runs the operation's handler and answers; `checked` when responses are validated. */
export function handle(options: { checked: boolean }) {
  const { checked } = options;
  return step<{ operation: HandledOperation } & CallerLocals & RequestLocals>(
    async function handle(req, res, next) {
      const { operation, caller, requestId } = res.locals;
      const handler = operation.handler;
      if (handler === undefined) {
        // Reported once at start (compiled-operation.ts), so not logged again on every call.
        next(engineErrors.notImplemented(operation.operationId));
        return;
      }
      const result = (await handler({
        query: req.query,
        // Decoded, coerced to their schema types and defaulted by the validation step.
        params: req.params,
        body: req.body,
        caller,
        requestId,
        reply,
        // Only an operation that negotiates has a choice to tell its handler about.
        mediaType: operation.answers.negotiates
          ? (status: number) => chosenType(operation.answers, status, req.headers.accept)
          : undefined,
      })) as Reply;
      const body = result.body;
      const answer = operation.answers.forStatus(result.status);
      if (answer !== undefined && answer.body !== "json") {
        writeOther(req, res, next, operation.answers, answer, result, checked);
        return;
      }
      if (!checked) {
        if (body instanceof JsonText) {
          send(res, result, JsonText.textOf(body), false);
          return;
        }
        const serialize = answer?.serialize;
        const text = serialize ? serialize(body) : (JSON.stringify(body) ?? "");
        send(res, result, text, false);
        return;
      }
      if (result.headers) setHandlerHeaders(res, result.headers);
      // JSON text is checked as the value it parses to, and written as it is.
      const text = body instanceof JsonText ? JsonText.textOf(body) : undefined;
      const reading = text === undefined ? { value: body } : parsed(text);
      if ("violation" in reading) {
        next(new ResponseContractError([reading.violation]));
        return;
      }
      const violations = operation.answers.violations(
        result.status,
        (name) => res.getHeader(name),
        reading.value,
      );
      if (violations.length > 0) {
        next(new ResponseContractError(violations));
        return;
      }
      send(res, result, text ?? JSON.stringify(body) ?? "", true);
    },
  );
}

/**
 * The declared type an answer of `status` is written in, as `accept` chooses it; undefined for a
 * response declared without content. A status whose types Accept refuses (an error's, say) is
 * sent in its first declared type: RFC 9110 section 12.5.1 lets a server disregard Accept rather
 * than hide the answer (the success types were checked before the handler ran).
 */
function chosenType(
  answers: CompiledAnswers,
  status: number,
  accept: string | undefined,
): string | undefined {
  const decided = answers.answerType(status, accept);
  if ("notAcceptable" in decided) return decided.available[0];
  return decided.body ? decided.mediaType : undefined;
}

/** What a body in a type other than JSON may be: bytes, text, or a stream of either. */
function isRawBody(body: unknown): body is Uint8Array | string | Readable {
  return typeof body === "string" || body instanceof Uint8Array || body instanceof Readable;
}

/** `text/*` written without a charset gets UTF-8, the encoding a string is written in. */
function withCharset(mediaType: string): string {
  return mediaType.startsWith("text/") && !/;\s*charset=/i.test(mediaType)
    ? `${mediaType}; charset=utf-8`
    : mediaType;
}

/**
 * Writes an answer whose documented response is not `application/json` alone: no content, or
 * content negotiated among the declared types.
 */
function writeOther(
  req: Request,
  res: Response,
  next: (err?: unknown) => void,
  answers: CompiledAnswers,
  answer: CompiledAnswer,
  result: Reply,
  checked: boolean,
): void {
  const { status, body, headers } = result;
  if (headers) setHandlerHeaders(res, headers);
  if (answer.body === "none") {
    if (checked) {
      const found = answers.violations(status, (name) => res.getHeader(name), body, false);
      if (body !== undefined) {
        found.push(`${status} is declared without content, but the handler answered a body`);
      }
      if (found.length > 0) {
        next(new ResponseContractError(found));
        return;
      }
    }
    res.removeHeader("Content-Type");
    res.statusCode = status;
    // 204 and 304 never carry a body (Node writes no length for them); any other status
    // declared without content says so with a length of 0.
    if (status !== 204 && status !== 304) res.setHeader("Content-Length", 0);
    res.end();
    return;
  }
  const declared = chosenType(answers, status, req.headers.accept) ?? "application/octet-stream";
  const own = res.getHeader("Content-Type");
  // A declared range (`image/*`) is made concrete by the handler's own Content-Type.
  const mediaType = declared.includes("*") && typeof own === "string" ? own : declared;
  // The answer depends on Accept (another type, or a 406): caches are told (added to any Vary).
  res.vary("Accept");
  if (isJsonType(mediaType)) {
    const text = body instanceof JsonText ? JsonText.textOf(body) : undefined;
    if (checked) {
      const reading = text === undefined ? { value: body } : parsed(text);
      const found =
        "violation" in reading
          ? [reading.violation]
          : answers.violations(
              status,
              (name) => res.getHeader(name),
              reading.value,
              mediaType === "application/json",
            );
      if (found.length > 0) {
        next(new ResponseContractError(found));
        return;
      }
    }
    const written =
      text ??
      (!checked && answer.serialize ? answer.serialize(body) : (JSON.stringify(body) ?? ""));
    res.statusCode = status;
    res.setHeader(
      "Content-Type",
      mediaType === "application/json" ? "application/json; charset=utf-8" : mediaType,
    );
    res.setHeader("Content-Length", Buffer.byteLength(written));
    res.end(written);
    return;
  }
  if (!isRawBody(body)) {
    // A bug of the handler: nothing says how to write an object as `mediaType`.
    next(
      new ResponseContractError([
        `${status} ${mediaType} needs a Buffer, a string or a stream, not ${typeof body}`,
      ]),
    );
    return;
  }
  if (checked) {
    const found = answers.violations(status, (name) => res.getHeader(name), body, false);
    if (found.length > 0) {
      next(new ResponseContractError(found));
      return;
    }
  }
  res.statusCode = status;
  res.setHeader("Content-Type", withCharset(mediaType));
  if (body instanceof Readable) {
    body.once("error", (err) => next(err));
    body.pipe(res);
    return;
  }
  res.setHeader("Content-Length", typeof body === "string" ? Buffer.byteLength(body) : body.length);
  res.end(body);
}
