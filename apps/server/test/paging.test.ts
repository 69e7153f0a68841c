/**
 * listPets pages through the whole list over HTTP (SQLite, response validation on): following
 * `Link: <...>; rel="next"` reaches every pet once, in id order, with and without each status
 * filter and at any limit the spec allows; the last page has no `next`; the link is the contract's
 * relative form; every bad cursor gets 400 with its own code and never a page or a 500.
 */
import type { Pet, PetStatus } from "@animal-store/api-types";
import { linksBesidesNext, nextLinkTarget } from "@animal-store/test-support/links";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contract } from "./support/contract.js";
import { followNext, idsOf, nextPageUrl, paging } from "./support/paging.js";
import { expectError, startTestApp, type TestApp } from "./support/test-app.js";

let app: TestApp;
let pets: Pet[] = [];
const SEEDED = 23;

/** The paged operation's URL with `query`. */
const listUrl = (query: Record<string, string | number> = {}) => {
  const search = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  );
  return `${app.url}${contract.basePath}${paging.path}${search.size ? `?${search}` : ""}`;
};
const withKey = (url: string) => fetch(url, { headers: { authorization: `Bearer ${app.key}` } });

/** Statuses in turn, and every fourth pet without one. */
const statusOf = (i: number): PetStatus | undefined =>
  paging.statuses[i % (paging.statuses.length + 1)] as PetStatus | undefined;

beforeAll(async () => {
  app = await startTestApp();
  for (let i = 0; i < SEEDED; i++) {
    const status = statusOf(i);
    pets.push(
      await app.store.createPet({ name: `p${i}`, categoryId: 1, ...(status ? { status } : {}) }),
    );
  }
  pets = pets.sort((a, b) => a.id - b.id);
});
afterAll(() => app.close());

describe("following next", () => {
  const limits = [paging.limit.minimum, 7, paging.limit.default, paging.limit.maximum];

  it.each(limits)(
    "limit=%i: every pet exactly once, in id order; no next on the last page",
    async (limit) => {
      const pages = await followNext(withKey, listUrl({ limit }));
      expect(idsOf(pages)).toEqual(pets.map((pet) => pet.id));
      expect(pages.map((page) => page.pets.length)).toEqual(
        Array.from({ length: Math.max(1, Math.ceil(SEEDED / limit)) }, (_, i) =>
          Math.min(limit, SEEDED - i * limit),
        ),
      );
      expect(pages.at(-1)?.next).toBeUndefined();
      for (const page of pages.slice(0, -1)) expect(page.next).toBeDefined();
    },
  );

  it.each(paging.statuses)("status=%s: that status's pets only, each once", async (status) => {
    const pages = await followNext(withKey, listUrl({ status, limit: 2 }));
    const expected = pets.filter((pet) => pet.status === status).map((pet) => pet.id);
    expect(expected.length).toBeGreaterThan(2);
    expect(idsOf(pages)).toEqual(expected);
  });

  it("limit may change from one page to the next; the pages still meet", async () => {
    let url: string | undefined = listUrl({ limit: 3 });
    const seen: number[] = [];
    const sizes = [3, 1, 9, paging.limit.maximum];
    for (let n = 0; url !== undefined; n++) {
      const response = await withKey(url);
      const page = (await response.json()) as Pet[];
      seen.push(...page.map((pet) => pet.id));
      const next = nextPageUrl(response, url);
      if (next === undefined) break;
      const changed = new URL(next);
      changed.searchParams.set("limit", String(sizes[(n + 1) % sizes.length]));
      url = changed.href;
    }
    expect(seen).toEqual(pets.map((pet) => pet.id));
  });

  it("the link is a relative query-only reference that repeats limit and status, rel=next", async () => {
    const status = paging.statuses[0] as string;
    const response = await withKey(listUrl({ limit: 2, status }));
    const link = response.headers.get("link") ?? "";
    if (paging.linkPattern) expect(link).toMatch(paging.linkPattern);
    // The next link among the field's links (RFC 8288), beside those every page carries.
    expect(linksBesidesNext(link)).toEqual(paging.standingLinks);
    const target = nextLinkTarget(link) ?? "";
    expect(target.startsWith("?")).toBe(true);
    const query = new URLSearchParams(target.slice(1));
    expect(query.get("limit")).toBe("2");
    expect(query.get("status")).toBe(status);
    expect(query.get(paging.cursorParameter)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("a list that fits one page, full or empty, has no next link", async () => {
    const exact = await withKey(listUrl({ limit: SEEDED }));
    expect(((await exact.json()) as Pet[]).length).toBe(SEEDED);
    // No next link: the field holds only the links every page carries, or is absent.
    const noNext = (response: Response) => {
      const link = response.headers.get("link");
      expect(nextLinkTarget(link), String(link)).toBeUndefined();
      if (paging.standingLinks.length === 0) expect(link).toBeNull();
      else expect(linksBesidesNext(link)).toEqual(paging.standingLinks);
    };
    noNext(exact);
    const empty = await startTestApp();
    try {
      const none = await empty.api(paging.path);
      expect(await none.json()).toEqual([]);
      noNext(none);
    } finally {
      await empty.close();
    }
  });

  it("the spec's example cursors are cursors this server accepts", async () => {
    const examples = Object.values(paging.cursorExamples);
    expect(examples.length).toBeGreaterThan(0);
    let accepted = 0;
    for (const cursor of examples) {
      for (const status of [undefined, ...paging.statuses]) {
        const response = await withKey(
          listUrl({ [paging.cursorParameter]: cursor, ...(status ? { status } : {}) }),
        );
        if (response.status === 200) accepted++;
        else await expectError(response, 400, paging.codes.otherFilter);
      }
    }
    // Each example belongs to exactly one filter (one of the statuses, or none).
    expect(accepted).toBe(examples.length);
  });
});

describe("bad cursors: 400 with a code of their own, never a page, never a 500", () => {
  let cursor = "";
  let status = "";
  beforeAll(async () => {
    status = paging.statuses[0] as string;
    const first = await withKey(listUrl({ limit: 1, status }));
    const next = nextPageUrl(first, listUrl({ limit: 1, status }));
    cursor = new URL(next ?? "http://x/").searchParams.get(paging.cursorParameter) ?? "";
    expect(cursor).not.toBe("");
  });

  const send = (text: string, query: Record<string, string> = { status }) =>
    withKey(listUrl({ ...query, limit: 1, [paging.cursorParameter]: text }));

  it("truncated: every shorter prefix", async () => {
    for (let length = 1; length < cursor.length; length++) {
      await expectError(await send(cursor.slice(0, length)), 400, paging.codes.invalid);
    }
  });

  it("edited: one character changed at each position, or one added", async () => {
    for (let i = 0; i < cursor.length; i++) {
      const letter = cursor[i] === "A" ? "B" : "A";
      await expectError(
        await send(`${cursor.slice(0, i)}${letter}${cursor.slice(i + 1)}`),
        400,
        paging.codes.invalid,
      );
    }
    await expectError(await send(`${cursor}A`), 400, paging.codes.invalid);
  });

  it("malformed or made up: other characters, any length, another encoding", async () => {
    const texts = [
      "x",
      "not a cursor",
      "%%%",
      "+/+/",
      `${cursor}=`,
      "é",
      "A".repeat(4000),
      Buffer.from(JSON.stringify({ after: 1 })).toString("base64url"),
      Buffer.from(cursor, "base64url").toString("base64"),
    ];
    for (const text of texts) {
      await expectError(await send(text), 400, paging.codes.invalid);
    }
    // Reserved characters sent as they are, not percent-encoded.
    for (const raw of ["a+b", "a/b:c@d", `${cursor}+`, "(x)!*'$,;"]) {
      const url = `${listUrl({ status, limit: 1 })}&${paging.cursorParameter}=${raw}`;
      await expectError(await withKey(url), 400, paging.codes.invalid);
    }
  });

  it("made for another filter: each other status, and none", async () => {
    for (const other of paging.statuses.filter((s) => s !== status)) {
      await expectError(await send(cursor, { status: other }), 400, paging.codes.otherFilter);
    }
    await expectError(await send(cursor, {}), 400, paging.codes.otherFilter);
  });

  it("the cursor it came with still works after all that", async () => {
    const response = await send(cursor);
    expect(response.status).toBe(200);
    const [pet] = (await response.json()) as Pet[];
    const sameStatus = pets.filter((p) => p.status === status);
    expect(pet?.id).toBe(sameStatus[1]?.id);
  });
});
