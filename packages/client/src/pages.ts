import { unwrap } from "./api-error.js";
import type { ResponseMeta } from "./response-meta.js";
import { sentCallOf } from "./response-meta.js";
import { SPEC_HEADERS } from "./spec-headers.js";

/**
 * The next page of a list: the target of the response's `Link: <...>; rel="next"` (RFC 8288),
 * resolved against the URL the request went to (the server sends a relative reference), or
 * undefined on the last page.
 */
export function nextPageUrl(response: Response): URL | undefined {
  for (const link of response.headers.get(SPEC_HEADERS.link)?.split(/,(?=\s*<)/) ?? []) {
    const [, target, params = ""] = /^\s*<([^>]*)>(.*)/.exec(link) ?? [];
    const rel = /;\s*rel\s*=\s*("[^"]*"|[^\s;,]*)/i.exec(params)?.[1] ?? "";
    if (target !== undefined && rel.replace(/"/g, "").toLowerCase().split(/\s+/).includes("next")) {
      return new URL(target, response.url || sentCallOf(response)?.url);
    }
  }
  return undefined;
}

/** One page of a list: its body, the response and what the response said about itself. */
export interface Page<Data> {
  readonly data: Data;
  readonly response: Response;
  readonly meta: ResponseMeta;
}

/** What `pages` needs of the client: its GET, with the init of a call. */
type Get = (
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response; meta: ResponseMeta }>;

/**
 * Every page of the list at `path`, first to last: each page is one `GET` of the client (so
 * pacing, timeouts, the deadline, retries and `meta` apply to it), then its `next` link is
 * followed, unchanged, until a page has none. A page that is not a success ends the walk with
 * its `ApiError`. A `next` link to another origin or path (where the key must not go), or back
 * to a page already read (which would never end), ends it with an Error.
 */
export async function* pages(
  get: Get,
  path: string,
  init: Record<string, unknown> = {},
): AsyncGenerator<Page<unknown>, void, undefined> {
  const read = new Set<string>();
  let query: string | undefined;
  for (;;) {
    const result = await get(
      path,
      query === undefined ? init : { ...init, querySerializer: () => query },
    );
    yield { data: unwrap(result), response: result.response, meta: result.meta };
    const next = nextPageUrl(result.response);
    if (!next) return;
    const here = new URL(result.response.url || (sentCallOf(result.response)?.url as string));
    read.add(here.href);
    if (next.origin + next.pathname !== here.origin + here.pathname || read.has(next.href)) {
      throw new Error(`${path}: the next link ${next} leaves this list or goes back in it`);
    }
    query = next.search.slice(1);
  }
}
