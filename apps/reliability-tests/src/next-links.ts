/**
 * Following an operation's `Link: <...>; rel="next"` as a client does, for the cursor checks:
 * the next target resolved against the page's URL (relative to the base path), and the query of
 * a target as pairs and back.
 */
import { must } from "./fuzz-run.js";
import type { RawResponse } from "./http-client.js";
import { assemble, type Parts } from "./request-parts.js";
import type { OperationSpec } from "./spec.js";

/** A query as name, value pairs, in order. */
export type Query = [string, string][];

/** The target of `Link: <...>; rel="next"` relative to `basePath`, or undefined on the last page. */
export function nextTarget(basePath: string, res: RawResponse, target: string): string | undefined {
  for (const link of res.headers.get("link")?.split(/,(?=\s*<)/) ?? []) {
    const [, ref, params = ""] = /^\s*<([^>]*)>(.*)/.exec(link) ?? [];
    if (ref === undefined || !/;\s*rel\s*=\s*"?next"?/i.test(params)) continue;
    const base = new URL(`${basePath}${target}`, "http://api.invalid");
    const url = new URL(ref, base);
    must(url.origin === base.origin, `the next link ${ref} leaves the API`);
    must(url.pathname === base.pathname, `the next link ${ref} leaves the list`);
    return `${url.pathname.slice(basePath.length)}${url.search}`;
  }
  return undefined;
}

/** The target of `op` with `parts` (path and query). */
export function targetOf(op: OperationSpec, parts: Parts): string {
  return assemble(op, parts).target;
}

/** The query of a target, as pairs. */
export function queryOf(target: string): Query {
  return [...new URL(target, "http://x").searchParams];
}

/** `target` with its query replaced by `query`. */
export function withQuery(target: string, query: Query): string {
  const text = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return `${target.split("?")[0]}?${text.join("&")}`;
}
