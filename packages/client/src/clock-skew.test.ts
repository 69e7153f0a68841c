import { describe, expect, it } from "vitest";
import { createClockSkew } from "./clock-skew.js";

const T = Date.UTC(2030, 0, 1, 12, 0, 0);
const date = (ms: number) => new Date(ms).toUTCString();

describe("createClockSkew", () => {
  it("is 0 until a Date header is seen, and ignores unreadable ones", () => {
    const skew = createClockSkew();
    expect(skew.offsetMs()).toBe(0);
    skew.observe(null, T);
    skew.observe("soon", T);
    expect(skew.offsetMs()).toBe(0);
  });

  it("keeps the highest sample: the tightest lower bound of the server's lead", () => {
    const skew = createClockSkew();
    // Server 10 s behind; Date has whole seconds, so samples fall up to 1 s below the truth.
    skew.observe(date(T - 10_000), T + 900);
    expect(skew.offsetMs()).toBe(-10_900);
    skew.observe(date(T - 9_000), T + 1_050);
    expect(skew.offsetMs()).toBe(-10_050);
    skew.observe(date(T - 9_000), T + 1_500);
    expect(skew.offsetMs()).toBe(-10_050);
  });

  it("forgets samples older than two minutes, so a clock that jumped is followed", () => {
    const skew = createClockSkew();
    skew.observe(date(T + 30_000), T);
    expect(skew.offsetMs()).toBe(30_000);
    // The client clock jumps 30 s forward: the old, higher sample lasts one more minute at most.
    skew.observe(date(T + 90_000), T + 90_000);
    expect(skew.offsetMs()).toBe(30_000);
    skew.observe(date(T + 150_000), T + 150_000);
    expect(skew.offsetMs()).toBe(0);
  });
});
