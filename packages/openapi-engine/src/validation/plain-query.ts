/**
 * The query of a request as Express 5's default ("simple") query parser reads it, without its
 * decoding work when there is nothing to decode.
 *
 * Express's `req.query` is a getter that looks the parser up in the app's settings, parses the URL
 * and runs `querystring.parse` on every read; `querystring.parse` itself checks every character
 * of every key and value for `%` and `+`. A query made only of unreserved characters, `=` and `&`
 * (`limit=20`, `status=sold&limit=10`) decodes to itself, so here it is only split, into the same
 * object `querystring.parse` builds: nothing inherited (see Query), a repeated name as an array in
 * order, a name without `=` as "", empty pairs skipped, at most 1000 pairs. Anything else (an
 * escape, `+`, a character parseurl hands to the legacy URL parser, more pairs) goes to the
 * getter, so the result is always the one Express would give (plain-query.test.ts compares them).
 */
import { parse } from "node:querystring";
import type { Request } from "express";
import { bareClass } from "../bare-objects.js";

// Unreserved characters (RFC 3986) and the two separators: nothing here is decoded or treated
// specially by parseurl or querystring.
const PLAIN = /^[A-Za-z0-9._~=&-]*$/;
// querystring.parse's default maxKeys: pairs after it are ignored.
const MAX_PAIRS = 1000;

/**
 * The query object: no property inherited, as querystring.parse's, and fast properties for the
 * later reads of it (validation's coercion, the handler's destructuring): see bare-objects.ts.
 */
const Query = bareClass<Record<string, string | string[]>>();

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
 * `req.query` as Express's getter computes it, split directly when the query is plain and the app
 * parses queries with its default parser; otherwise read through the getter.
 */
export function readQuery(req: Request): Record<string, unknown> {
  const { url, app } = req;
  // A request Express did not make (no app): only its own req.query can say.
  if (app === undefined || typeof url !== "string") return req.query as Record<string, unknown>;
  const at = url.indexOf("?");
  const text = at === -1 ? "" : url.slice(at + 1);
  if (PLAIN.test(text) && app.get("query parser fn") === parse) {
    const query = splitPlainQuery(text);
    if (query !== undefined) return query;
  }
  return req.query as Record<string, unknown>;
}
