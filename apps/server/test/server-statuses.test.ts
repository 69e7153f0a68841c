/**
 * The statuses the engine answers operations with are the ones the lint rule
 * `spec-facts/server-statuses` requires the spec to declare (SERVER_STATUSES of
 * @animal-store/openapi): a status added to the engine without being added there would pass lint
 * and then break the contract at run time. This scans the engine's sources for the statuses it
 * answers with.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { SERVER_STATUSES } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";

const engine = new URL("../src/engine/", import.meta.url).pathname;

/** Statuses the engine answers with that belong to no operation, and why. */
const OUTSIDE_OPERATIONS: Record<string, string> = {
  "404": "a path that matches no operation (and /docs before it is built)",
  "405": "a method the path has no operation for",
};

/** Every non-test TypeScript source of the engine. */
function sources(dir = engine): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The statuses a source answers with: ApiHttpErrors it makes and statuses it maps to codes. */
function statusesIn(text: string): string[] {
  const made = [...text.matchAll(/new ApiHttpError\(\s*(\d{3})\b/g)].map((m) => String(m[1]));
  const mapped = [...text.matchAll(/^\s*(\d{3}): "[a-z_]+",$/gm)].map((m) => String(m[1]));
  return [...made, ...mapped];
}

describe("the statuses the engine can send", () => {
  it("are each required by spec-facts/server-statuses, or answer no operation", () => {
    const required = new Set(SERVER_STATUSES.map((entry) => entry.status));
    const found = sources().flatMap((file) =>
      statusesIn(readFileSync(file, "utf8")).map((status) => ({ status, file })),
    );
    expect(found.length).toBeGreaterThan(5);
    const unlisted = found
      .filter(({ status }) => !required.has(status) && !(status in OUTSIDE_OPERATIONS))
      .map(({ status, file }) => `${status} in ${relative(engine, file)}`);
    expect(unlisted, "add them to openapi/src/server-statuses.ts").toEqual([]);
  });
});
