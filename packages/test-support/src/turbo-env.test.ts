import { readFileSync } from "node:fs";
import { afterEach, expect, it } from "vitest";
import { turboHashedEnv } from "./turbo-env.js";

const hashed: string[] = JSON.parse(
  readFileSync(new URL("../../../turbo.json", import.meta.url), "utf8"),
).globalEnv;
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

it("passes on each variable turbo hashes that is set, and nothing else", () => {
  expect(hashed.length).toBeGreaterThan(0);
  for (const name of hashed) delete process.env[name];
  const [first, ...rest] = hashed as [string, ...string[]];
  process.env[first] = "set-here";
  process.env.NOT_HASHED_BY_TURBO = "1";
  expect(turboHashedEnv()).toEqual({ [first]: "set-here" });
  for (const name of rest) process.env[name] = `${name}-value`;
  expect(Object.keys(turboHashedEnv()).sort()).toEqual([...hashed].sort());
});
