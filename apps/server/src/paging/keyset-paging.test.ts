import { describe, expect, it } from "vitest";
import { encodeCursor, type ListAfter, nextLink, readPage } from "./keyset-paging.js";

interface Item {
  id: number;
  colour?: string;
}

/** An in-memory list with ids 1..count, every third one red; counts how it was asked. */
function memoryList(count: number) {
  const items: Item[] = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    ...(i % 3 === 0 ? { colour: "red" } : {}),
  }));
  const asked: number[] = [];
  const listAfter: ListAfter<Item, { colour?: string }> = async ({ limit, afterId, filter }) => {
    asked.push(limit);
    return items
      .filter((item) => item.id > afterId && (!filter.colour || item.colour === filter.colour))
      .slice(0, limit);
  };
  return { items, asked, listAfter };
}

/** Follows `next` from the first page; the limit of page n is `limits(n)`. */
async function walk(
  list: ReturnType<typeof memoryList>,
  filter: object,
  limits: (n: number) => number,
) {
  const pages: Item[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await readPage({ limit: limits(pages.length), cursor, filter }, list.listAfter);
    if (!page.ok) throw new Error(page.error.message);
    pages.push(page.items);
    if (page.next === undefined) return pages;
    cursor = page.next;
  }
}

describe("readPage", () => {
  it("reaches every item once, in id order, and the last page has no next", async () => {
    const list = memoryList(10);
    const pages = await walk(list, {}, () => 3);
    expect(pages.map((page) => page.map((item) => item.id))).toEqual([
      [1, 2, 3],
      [4, 5, 6],
      [7, 8, 9],
      [10],
    ]);
    // One more than the page each time: that is how the last page knows it is last.
    expect(list.asked).toEqual([4, 4, 4, 4]);
  });

  it("ends on a full last page without an empty page after it", async () => {
    const pages = await walk(memoryList(6), {}, () => 3);
    expect(pages.map((page) => page.length)).toEqual([3, 3]);
  });

  it("a limit may change between pages", async () => {
    const pages = await walk(memoryList(10), {}, (n) => [2, 5, 1, 100][n] ?? 1);
    expect(pages.map((page) => page.map((item) => item.id))).toEqual([
      [1, 2],
      [3, 4, 5, 6, 7],
      [8],
      [9, 10],
    ]);
  });

  it("pages within the filter, and refuses its cursor under another filter", async () => {
    const list = memoryList(10);
    const pages = await walk(list, { colour: "red" }, () => 2);
    expect(pages.flat().map((item) => item.id)).toEqual([1, 4, 7, 10]);
    const first = await readPage(
      { limit: 2, cursor: undefined, filter: { colour: "red" } },
      list.listAfter,
    );
    if (!first.ok) throw new Error("first page refused");
    const asked = list.asked.length;
    const other = await readPage({ limit: 2, cursor: first.next, filter: {} }, list.listAfter);
    expect(other).toEqual({
      ok: false,
      error: expect.objectContaining({ code: "cursor_filter_mismatch", status: 400 }),
    });
    expect(list.asked.length).toBe(asked);
  });

  it("a bad cursor is refused before the store is asked", async () => {
    const list = memoryList(5);
    for (const cursor of ["x", encodeCursor({ afterId: 2, filter: "" }).slice(0, -2)]) {
      const page = await readPage({ limit: 2, cursor, filter: {} }, list.listAfter);
      expect(page).toEqual({
        ok: false,
        error: expect.objectContaining({ code: "invalid_cursor", status: 400 }),
      });
    }
    expect(list.asked).toEqual([]);
  });
});

describe("nextLink", () => {
  it("is a query-only relative reference with rel=next, leaving out unset parameters", () => {
    expect(nextLink({ limit: 20, status: "sold", cursor: "abc_-1" })).toBe(
      '<?limit=20&status=sold&cursor=abc_-1>; rel="next"',
    );
    expect(nextLink({ limit: 5, status: undefined, cursor: "c" })).toBe(
      '<?limit=5&cursor=c>; rel="next"',
    );
  });

  it("resolves against the request's URL, whatever origin and prefix the client used", () => {
    const target = /^<([^>]*)>/.exec(nextLink({ limit: 2, cursor: "c" }))?.[1] ?? "";
    for (const base of [
      "http://127.0.0.1:8080/api/pets?limit=2",
      "https://api.example/store/api/pets?status=sold&limit=2",
    ]) {
      const resolved = new URL(target, base);
      expect(resolved.pathname).toBe(new URL(base).pathname);
      expect(resolved.origin).toBe(new URL(base).origin);
      expect(resolved.search).toBe("?limit=2&cursor=c");
    }
  });
});
