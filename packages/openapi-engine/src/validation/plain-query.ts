/**
 * The query of a request as Express 5's default ("simple") query parser reads it, without its
 * decoding work when there is nothing to decode: the app's query parser (Express's public
 * `query parser` setting), so Express's `req.query` getter calls it.
 *
 * `querystring.parse` checks every character of every key and value for `%` and `+`. A query made only of unreserved characters, `=` and `&`
 * (`limit=20`, `status=sold&limit=10`) decodes to itself, so here it is only split, into the same
 * object `querystring.parse` builds: nothing inherited (see Query), a repeated name as an array in
 * order, a name without `=` as "", empty pairs skipped, at most 1000 pairs. Anything else (an
 * escape, `+`, more pairs) goes to `querystring.parse`, so the result is always the one Express's
 * default parser would give (plain-query.test.ts compares them).
 */
import { parse } from "node:querystring";
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
