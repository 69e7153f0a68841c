/**
 * listPets' paging: keyset pages over any store, and the cursor of their `next` link.
 *
 * Keyset paging over any store that can list ids above a given one in ascending order: one page,
 * whether another follows, and the `next` link to it. Nothing here knows the database engine, so
 * the same logic serves SQLite, PostgreSQL and an in-memory store.
 *
 * The cursor of listPets' `next` link: opaque to clients, written and read only here.
 *
 * Layout, then base64url without padding:
 *   version (1 byte) | filter length (1 byte) | filter (UTF-8) | after id (8 bytes, big-endian) | tag (8 bytes)
 *
 * - The after id is the last id of the page the cursor follows: the next page is the ids above it
 *   (keyset), so a cursor stays right however many pets are created meanwhile. The caller saw that
 *   id on the page, so the cursor tells it nothing new.
 * - The filter is the request's filter parameters as a sorted query string ("status=sold", "" for
 *   none), so a cursor is bound to the list it was made for: sent with another filter it would
 *   silently start some other list at that id, so it is refused instead.
 * - The tag is the first 8 bytes of SHA-256 over a fixed label and everything before it. It is a
 *   digest, not a keyed MAC, by choice: the cursor holds nothing secret (the id and the filter are
 *   the caller's own), and a forger who recomputes the digest can only reach pets it may list
 *   anyway. A key would have to be shared by every instance on the same PostgreSQL and survive
 *   restarts (a per-process random key breaks every cursor issued by another instance or before a
 *   restart), and the contract's example cursors would be valid on no deployment. What the tag
 *   must catch is a cursor damaged on its way (cut short, edited, pasted in part), which would
 *   otherwise decode to another position and answer a silently wrong page: 2^-64 of them pass.
 * - The version lets a later layout be told apart (and refused) instead of misread.
 */
import { hash } from "node:crypto";

// ─── The cursor ─────────────────────────────────────────────────────────────────────────────────

const VERSION = 1;
const ID_BYTES = 8;
const TAG_BYTES = 8;
const LABEL = Buffer.from("animal-store page cursor\0", "utf8");
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Where a page starts: after this id, within this filter. */
export interface PageCursor {
  /** The last id of the previous page (a safe integer >= 1). */
  afterId: number;
  /** The filter the cursor belongs to, as `filterText` writes it. */
  filter: string;
}

/** What reading a cursor for a request found. */
export type CursorReading =
  | { ok: true; afterId: number }
  | { ok: false; problem: "invalid" | "other-filter" };

/** A request's filter parameters as one canonical text: set ones only, sorted, query-encoded. */
export function filterText(filter: Readonly<Record<string, unknown>>): string {
  const set = Object.entries(filter)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]): [string, string] => [name, String(value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(set).toString();
}

/** SHA-256 of `labelled` (the label, then a cursor's body), cut to the tag's length. */
function tagOf(labelled: Buffer): Buffer {
  // The one-shot form: createHash().update().digest() allocates a Hash object per page answered.
  return hash("sha256", labelled, "buffer").subarray(0, TAG_BYTES);
}

/** The cursor text of a position; throws on an id or filter no request can produce. */
export function encodeCursor({ afterId, filter }: PageCursor): string {
  if (!Number.isSafeInteger(afterId) || afterId < 1) {
    throw new RangeError(`a cursor's id must be a safe integer >= 1 (got ${afterId})`);
  }
  const filterBytes = Buffer.from(filter, "utf8");
  if (filterBytes.length > 255) throw new RangeError("a cursor's filter is longer than 255 bytes");
  // One buffer: the label (hashed, never sent), the body, then room for the tag.
  const bodyLength = 2 + filterBytes.length + ID_BYTES;
  const bytes = Buffer.allocUnsafe(LABEL.length + bodyLength + TAG_BYTES);
  LABEL.copy(bytes, 0);
  const at = LABEL.length;
  bytes[at] = VERSION;
  bytes[at + 1] = filterBytes.length;
  filterBytes.copy(bytes, at + 2);
  // The id as a 64-bit big-endian integer, in two 32-bit halves (a safe integer needs no BigInt).
  bytes.writeUInt32BE(Math.floor(afterId / 2 ** 32), at + 2 + filterBytes.length);
  bytes.writeUInt32BE(afterId >>> 0, at + 6 + filterBytes.length);
  tagOf(bytes.subarray(0, at + bodyLength)).copy(bytes, at + bodyLength);
  return bytes.subarray(at).toString("base64url");
}

/**
 * Reads `text` as a cursor for a request whose filter is `filter` (`filterText`). Anything but a
 * cursor this module wrote, unchanged, is "invalid"; an intact one made for another filter is
 * "other-filter". Never throws: every input gets one of the three answers.
 */
export function decodeCursor(text: string, filter: string): CursorReading {
  const invalid = { ok: false, problem: "invalid" } as const;
  if (!BASE64URL.test(text)) return invalid;
  const bytes = Buffer.from(text, "base64url");
  // Base64url has several texts for some byte strings (unused low bits): only ours is accepted.
  if (bytes.toString("base64url") !== text) return invalid;
  if (bytes.length < 2 + ID_BYTES + TAG_BYTES || bytes[0] !== VERSION) return invalid;
  const filterLength = bytes[1] ?? 0;
  if (bytes.length !== 2 + filterLength + ID_BYTES + TAG_BYTES) return invalid;
  const body = bytes.subarray(0, bytes.length - TAG_BYTES);
  if (!tagOf(Buffer.concat([LABEL, body])).equals(bytes.subarray(body.length))) return invalid;
  const afterId = body.readBigUInt64BE(2 + filterLength);
  if (afterId < 1n || afterId > BigInt(Number.MAX_SAFE_INTEGER)) return invalid;
  if (!body.subarray(2, 2 + filterLength).equals(Buffer.from(filter, "utf8"))) {
    return { ok: false, problem: "other-filter" };
  }
  return { ok: true, afterId: Number(afterId) };
}

// ─── The page ───────────────────────────────────────────────────────────────────────────────────

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
