import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SERVING_V8_FLAGS, tuneV8ForServing } from "./v8-tuning.js";

/**
 * A child process that sets `flags` at run time, as tuneV8ForServing does, then trains one
 * literal the way a stream of slow requests trains Node's: most of what it makes outlives a
 * young collection. Returns how many of 99 objects made afterwards V8 put in the old generation.
 */
function madeOld(flags: readonly string[]): number {
  const script = `
    const v8 = require("node:v8");
    for (const flag of ${JSON.stringify(flags)}) v8.setFlagsFromString(flag);
    function make(i) { return { a: i, b: [i, i] }; }
    let keep = [];
    let old = 0;
    for (let round = 0; round < 400; round++) {
      for (let i = 0; i < 5000; i++) keep.push(make(i));
      if (round > 300) {
        const o = make(round);
        if (!%InYoungGeneration(o)) old++;
        keep.push(o);
      }
      if (keep.length >= 400000) keep = keep.slice(200000);
    }
    console.log(old);
  `;
  const run = spawnSync(process.execPath, ["--allow-natives-syntax", "-e", script], {
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout.trim());
}

describe("tuneV8ForServing", () => {
  it("sets every serving flag through V8", () => {
    const set: string[] = [];
    tuneV8ForServing((flag) => set.push(flag));
    expect(set).toEqual([...SERVING_V8_FLAGS]);
  });

  it("keeps a literal whose objects outlive young collections making them young, set at run time", () => {
    // Without the flags V8 pretenures the literal (the behaviour the flags are there to stop);
    // with them, set after start-up as the server sets them, it never does.
    expect(madeOld([])).toBeGreaterThan(90);
    expect(madeOld(SERVING_V8_FLAGS)).toBe(0);
  });
});
