/**
 * OpenAPI runtime expressions, the values of a link's `parameters`: `$response.body#/id`,
 * `$response.header.Location`, `$request.path.petId`, `$request.query.limit`,
 * `$request.header.X`, `$request.body#/name`, `$url`, `$method`, `$statusCode`; anything that
 * is not an expression is a constant. An expression outside that grammar throws, naming it.
 */
import type { Parts } from "./request-parts.js";

/** What a link's expressions are evaluated against: the linking exchange. */
export interface LinkSource {
  method: string;
  url: string;
  request: Parts;
  status: number;
  headers: Headers;
  body: unknown;
}

function pointer(value: unknown, fragment: string | undefined): unknown {
  if (fragment === undefined || fragment === "" || fragment === "#") return value;
  if (!fragment.startsWith("#/")) throw new Error(`not a JSON Pointer fragment: ${fragment}`);
  return fragment
    .slice(2)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>(
      (at, key) =>
        at !== null && typeof at === "object" && Object.hasOwn(at, key)
          ? (at as Record<string, unknown>)[key]
          : undefined,
      value,
    );
}

/** The value `expression` stands for in `source`. */
export function evaluateLinkExpression(expression: unknown, source: LinkSource): unknown {
  if (typeof expression !== "string" || !expression.startsWith("$")) return expression;
  if (expression === "$url") return source.url;
  if (expression === "$method") return source.method;
  if (expression === "$statusCode") return source.status;
  const request = /^\$request\.(path|query|header)\.(.+)$/.exec(expression);
  if (request) {
    const [, where, name] = request as unknown as [string, string, string];
    if (where === "path") return source.request.path[name];
    if (where === "query") return source.request.query.find(([k]) => k === name)?.[1];
    const found = Object.entries(source.request.headers).find(
      ([k]) => k.toLowerCase() === name.toLowerCase(),
    );
    return found?.[1];
  }
  const header = /^\$response\.header\.(.+)$/.exec(expression);
  if (header) return source.headers.get(header[1] as string) ?? undefined;
  const body = /^\$(request|response)\.body(#.*)?$/.exec(expression);
  if (body)
    return pointer(body[1] === "request" ? source.request.body?.value : source.body, body[2]);
  throw new Error(`runtime expression ${expression} is not supported`);
}
