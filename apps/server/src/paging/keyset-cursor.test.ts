import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, filterText } from "./keyset-paging.js";

const FILTER = "status=sold";

describe("filterText", () => {
  it("writes the set filter parameters sorted and query-encoded, and none as empty", () => {
    expect(filterText({ status: "sold" })).toBe(FILTER);
    expect(filterText({ status: undefined })).toBe("");
    expect(filterText({})).toBe("");
    expect(filterText({ z: "1", a: "x y" })).toBe("a=x+y&z=1");
  });
});

describe("page cursor", () => {
  it("keeps its layout: a cursor written by an earlier build still reads, and is written the same", () => {
    // Written by the build before the one-shot hash: clients hold cursors across deploys.
    const earlier: Array<[number, string, string]> = [
      [120, "", "AQAAAAAAAAAAeOBbRlysrdj5"],
      [2 ** 40 + 7, "status=available", "ARBzdGF0dXM9YXZhaWxhYmxlAAABAAAAAAdo4eUbVySNHQ"],
    ];
    for (const [afterId, filter, cursor] of earlier) {
      expect(encodeCursor({ afterId, filter })).toBe(cursor);
      expect(decodeCursor(cursor, filter)).toEqual({ ok: true, afterId });
    }
  });

  it("reads back the id it was made for, within its filter", () => {
    for (const afterId of [1, 20, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER]) {
      for (const filter of ["", FILTER]) {
        const cursor = encodeCursor({ afterId, filter });
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeCursor(cursor, filter)).toEqual({ ok: true, afterId });
      }
    }
  });

  it("refuses to make a cursor for an id no pet can have", () => {
    for (const afterId of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => encodeCursor({ afterId, filter: "" }), String(afterId)).toThrow(RangeError);
    }
  });

  it("a cursor made for another filter is 'other-filter', never a page of this one", () => {
    const cursor = encodeCursor({ afterId: 5, filter: FILTER });
    expect(decodeCursor(cursor, "status=pending")).toEqual({ ok: false, problem: "other-filter" });
    expect(decodeCursor(cursor, "")).toEqual({ ok: false, problem: "other-filter" });
    const unfiltered = encodeCursor({ afterId: 5, filter: "" });
    expect(decodeCursor(unfiltered, FILTER)).toEqual({ ok: false, problem: "other-filter" });
  });

  it("every truncation of a cursor is invalid", () => {
    const cursor = encodeCursor({ afterId: 123456, filter: FILTER });
    for (let length = 0; length < cursor.length; length++) {
      const cut = cursor.slice(0, length);
      expect(decodeCursor(cut, FILTER), cut).toEqual({ ok: false, problem: "invalid" });
    }
  });

  it("every change of one character, and every character added, is invalid", () => {
    const cursor = encodeCursor({ afterId: 123456, filter: FILTER });
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < cursor.length; i++) {
      for (const letter of alphabet) {
        if (letter === cursor[i]) continue;
        const changed = `${cursor.slice(0, i)}${letter}${cursor.slice(i + 1)}`;
        expect(decodeCursor(changed, FILTER).ok, changed).toBe(false);
      }
    }
    for (const letter of alphabet) {
      expect(decodeCursor(`${cursor}${letter}`, FILTER).ok).toBe(false);
    }
  });

  it("every change of one bit of the decoded bytes is invalid", () => {
    const bytes = Buffer.from(encodeCursor({ afterId: 99, filter: FILTER }), "base64url");
    for (let bit = 0; bit < bytes.length * 8; bit++) {
      const flipped = Buffer.from(bytes);
      flipped[bit >> 3] = (flipped[bit >> 3] ?? 0) ^ (1 << (bit & 7));
      const text = flipped.toString("base64url");
      expect(decodeCursor(text, FILTER), `bit ${bit}`).toEqual({ ok: false, problem: "invalid" });
    }
  });

  it("refuses texts that are not base64url, or other spellings of the same bytes", () => {
    const cursor = encodeCursor({ afterId: 1, filter: "" });
    for (const text of ["", "=", `${cursor}=`, `${cursor} `, "a+b/", "%41", "\u00e9"]) {
      expect(decodeCursor(text, ""), text).toEqual({ ok: false, problem: "invalid" });
    }
    // When the byte count is not a multiple of 3, the last character carries unused low bits:
    // another letter there decodes to the same bytes.
    const filtered = encodeCursor({ afterId: 1, filter: FILTER });
    const bytes = Buffer.from(filtered, "base64url");
    expect(bytes.length % 3).not.toBe(0);
    const alias = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"]
      .map((letter) => `${filtered.slice(0, -1)}${letter}`)
      .find((text) => text !== filtered && Buffer.from(text, "base64url").equals(bytes));
    expect(alias).toBeDefined();
    expect(decodeCursor(alias as string, FILTER)).toEqual({ ok: false, problem: "invalid" });
  });

  it("never throws and never reads an arbitrary text as a position (generated texts)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.constantFrom("", FILTER), (text, filter) => {
        const reading = decodeCursor(text, filter);
        expect(reading.ok).toBe(false);
      }),
      { numRuns: 2000, seed: 22 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = Buffer.from(bytes).toString("base64url");
        if (text === "") return;
        expect(decodeCursor(text, "").ok).toBe(false);
      }),
      { numRuns: 2000, seed: 22 },
    );
  });
});
