/**
 * Keyset paging over any store that can list ids above a given one in ascending order: one page,
 * whether another follows, and the `next` link to it. Nothing here knows the database engine, so
 * the same logic serves SQLite, PostgreSQL and an in-memory store.
 */
import { type CursorReading, decodeCursor, encodeCursor, filterText } from "./cursor.js";

/** A page request: the page size, the cursor sent (if any) and the request's filter parameters. */
export interface PageRequest<Filter> {
  limit: number;
  cursor: string | undefined;
  filter: Filter;
}

/** The 400 body of a cursor the request cannot use. */
export interface CursorError {
  code: "invalid_cursor" | "cursor_filter_mismatch";
  message: string;
  status: 400;
}

/** One page, and the cursor of the next one when more items follow. */
export type PageAnswer<Item> =
  | { ok: true; items: Item[]; next: string | undefined }
  | { ok: false; error: CursorError };

/** Lists up to `limit` items with ids above `afterId` (0: from the start), in ascending id order. */
export type ListAfter<Item, Filter> = (query: {
  limit: number;
  afterId: number;
  filter: Filter;
}) => Promise<Item[]>;

function cursorError(reading: Exclude<CursorReading, { ok: true }>, filter: string): CursorError {
  if (reading.problem === "invalid") {
    return {
      code: "invalid_cursor",
      message:
        'The cursor is not one this service issued; take it from a Link rel="next" as it is.',
      status: 400,
    };
  }
  return {
    code: "cursor_filter_mismatch",
    message: `The cursor was made for another filter than this request's (${filter || "none"}); send it with the filter of the link it came from.`,
    status: 400,
  };
}

/** Where a page starts: after the cursor's id (0: from the start), with the request's filter. */
export type PageStart =
  | { ok: true; afterId: number; filter: string }
  | { ok: false; error: CursorError };

/** Checks the cursor sent (if any) against the request's filter: where the page starts. */
export function pageStart<Filter extends object>(
  request: Pick<PageRequest<Filter>, "cursor" | "filter">,
): PageStart {
  const filter = filterText(request.filter as Record<string, unknown>);
  if (request.cursor === undefined) return { ok: true, afterId: 0, filter };
  const reading = decodeCursor(request.cursor, filter);
  if (!reading.ok) return { ok: false, error: cursorError(reading, filter) };
  return { ok: true, afterId: reading.afterId, filter };
}

/** The cursor of the page after one that starts at `start` and ends with id `lastId`. */
export function nextCursor(start: { filter: string }, lastId: number): string {
  return encodeCursor({ afterId: lastId, filter: start.filter });
}

/**
 * Reads one page: the cursor is checked before the store is asked, and the store is asked for
 * one item more than the page holds, so the last page is known to be last (no `next` link, and
 * no empty page after it). The next cursor is the last id of this page.
 */
export async function readPage<Item extends { id: number }, Filter extends object>(
  request: PageRequest<Filter>,
  listAfter: ListAfter<Item, Filter>,
): Promise<PageAnswer<Item>> {
  const start = pageStart(request);
  if (!start.ok) return start;
  const items = await listAfter({
    limit: request.limit + 1,
    afterId: start.afterId,
    filter: request.filter,
  });
  if (items.length <= request.limit) return { ok: true, items, next: undefined };
  const page = items.slice(0, request.limit);
  const last = page.at(-1) as Item;
  return { ok: true, items: page, next: nextCursor(start, last.id) };
}

/**
 * The `Link` header value to the next page (RFC 8288 `rel="next"`): a relative reference of only
 * a query, which resolves against whatever URL the client used (RFC 3986 section 5.2.2). The
 * server may sit behind a proxy that serves it under another origin or path prefix, which it
 * cannot know; a query-only reference is right under any of them. `query` is the request's
 * query with the next page's cursor in it; unset parameters are left out.
 */
export function nextLink(query: Readonly<Record<string, unknown>>): string {
  const set = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]): [string, string] => [name, String(value)]);
  return `<?${new URLSearchParams(set)}>; rel="next"`;
}
