import { describe, expect, it } from "vitest";
import { decodeExactly, hasLoneSurrogateEscape } from "./text-check.js";

describe("hasLoneSurrogateEscape", () => {
  it.each([
    ['"ab\\ud800cd"', true],
    ['"\\uDC00"', true],
    ['"\\ud83d"', true],
    ['"\\ud83d\\u0041"', true],
    ['"\\ud83d\\n\\ude00"', true],
    ['"\\ud83d\\ud83d\\ude00"', true],
    ['"\\ud83d\\ude00"', false],
    ['"\\\\ud800"', false],
    ['"\\\\\\ud83d\\ude00"', false],
    ['"\\u0041\\n\\"x"', false],
    ['{"a":"\\ud83d\\ude00","b":"\\ud800"}', true],
  ])("%s: %s", (text, lone) => {
    expect(hasLoneSurrogateEscape(text)).toBe(lone);
  });
});

describe("decodeExactly", () => {
  it("gives the text, or why it cannot be kept", () => {
    expect(decodeExactly(Buffer.from('{"a":"\u00e9\\ud83d\\ude00"}'))).toBe(
      '{"a":"\u00e9\\ud83d\\ude00"}',
    );
    expect(decodeExactly(Buffer.from([0x22, 0xc3, 0x28, 0x22]))).toEqual({
      problem: "its bytes are not UTF-8",
    });
    // A surrogate encoded in UTF-8 bytes (CESU-8) is not UTF-8 either.
    expect(decodeExactly(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]))).toEqual({
      problem: "its bytes are not UTF-8",
    });
    expect(decodeExactly(Buffer.from('"\\ud800"'))).toHaveProperty("problem");
  });
});
