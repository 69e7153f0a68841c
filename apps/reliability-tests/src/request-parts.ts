/**
 * A request for an operation as its parts (path values, query pairs, header values, body) and
 * back: generators and boundary cases build parts, the analysis reads them back from the wire
 * form, so each side has one place that knows how an OpenAPI request is laid out.
 */
import type { RawRequest } from "./http-client.js";
import type { OperationSpec } from "./spec.js";

/** The parts of a request, as text except the body's value. */
export interface Parts {
  path: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  /** The body as sent and its value; `value` undefined when the text is not JSON. */
  body: { text: string; value: unknown } | null;
}

/** A request ready to send (path relative to the contract's base path). */
export interface GeneratedRequest {
  method: string;
  /** Path with parameters substituted and encoded, plus the query string. */
  target: string;
  headers: Record<string, string>;
  body?: string;
  /** Which part was broken, for failure messages; "" for valid requests. */
  broken: string;
  /** The body as sent, parsed back, for valid creates (what the answer must echo). */
  sentBody?: unknown;
}

/** Builds the request of `op` from its parts; `broken` says what was broken ("" for none). */
export function assemble(op: OperationSpec, parts: Parts, broken = ""): GeneratedRequest {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(parts.path[name] ?? ""),
  );
  const query = parts.query
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
  const request: GeneratedRequest = {
    method: op.method,
    target: query ? `${path}?${query}` : path,
    headers: { ...parts.headers },
    broken,
  };
  if (parts.body) {
    request.headers["content-type"] = "application/json";
    request.body = parts.body.text;
    if (!broken) request.sentBody = parts.body.value;
  }
  return request;
}

/** The wire form of a generated request under `basePath`, with extra headers (a credential). */
export function onTheWire(
  basePath: string,
  req: GeneratedRequest,
  extraHeaders: Record<string, string> = {},
): RawRequest {
  const raw: RawRequest = {
    method: req.method,
    target: `${basePath}${req.target}`,
    headers: { ...req.headers, ...extraHeaders },
  };
  return req.body === undefined ? raw : { ...raw, body: req.body };
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The parts of `req` (target relative to the base path) read as `op` declares them; null when
 * its path is not the operation's. Query pairs keep every repetition; unknown ones are kept too.
 */
export function partsOf(
  op: OperationSpec,
  req: { target: string; headers?: Record<string, string>; body?: string | Buffer },
): Parts | null {
  const url = new URL(req.target, "http://x");
  const match = op.routed.pattern.exec(url.pathname);
  if (!match) return null;
  const path: Record<string, string> = {};
  op.routed.names.forEach((name, i) => {
    path[name] = decoded(match[i + 1] ?? "");
  });
  const headers: Record<string, string> = {};
  const sent = Object.entries(req.headers ?? {});
  for (const p of op.parameters.filter((q) => q.in === "header")) {
    const found = sent.find(([name]) => name.toLowerCase() === p.name.toLowerCase());
    if (found) headers[p.name] = found[1];
  }
  let body: Parts["body"] = null;
  if (req.body !== undefined) {
    const text = req.body.toString();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    body = { text, value };
  }
  return { path, query: [...url.searchParams.entries()], headers, body };
}
