import { unwrap } from "./api-error.js";
import type { ResponseMeta } from "./response-meta.js";
import { SPEC_HEADERS } from "./spec-headers.js";

/**
 * The next page of a list: the target of the response's `Link: <...>; rel="next"` (RFC 8288),
 * resolved against the URL the request went to (the server sends a relative reference), or
 * undefined on the last page. A link's parameters run to the next `<`; `rel` may hold several
 * relation types.
 */
export function nextPageUrl(response: Response): URL | undefined {
  // The first link whose parameters (up to the next `<`) have "next" among their rel values.
  const link = /<([^>]*)>[^<]*;\s*rel\s*=\s*"?([^";,<]*\s)?next[\s";,<]/i.exec(
    `${response.headers.get(SPEC_HEADERS.link)}<`,
  );
  return link ? new URL(link[1] as string, response.url) : undefined;
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
 * followed, its query unchanged, until a page has none. A page that is not a success ends the
 * walk with its `ApiError`. A `next` link to another origin or path (where the key must not go),
 * or back to a page already read (which would never end), ends it with an Error.
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
    yield { ...result, data: unwrap(result) };
    const next = nextPageUrl(result.response);
    if (!next) return;
    read.add(result.response.url);
    // Only another query of the same resource: the same URL with the link's query.
    if (new URL(next.search, result.response.url).href !== next.href || read.has(next.href)) {
      throw new Error(`${path}: next link ${next} leaves the list or loops`);
    }
    query = next.search.slice(1);
  }
}
