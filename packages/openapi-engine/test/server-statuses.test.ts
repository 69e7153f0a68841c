/**
 * The statuses the engine answers operations with are the ones the lint rule
 * `spec-facts/server-statuses` requires the spec to declare (SERVER_STATUSES of
 * @animal-store/openapi): a status added to the engine without being added there would pass lint
 * and then break the contract at run time. The engine's statuses are its error catalogue's
 * (errors.ts, where every code is bound to its status once).
 */
import { SERVER_STATUSES } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { ENGINE_ERROR_STATUS } from "../src/errors.js";

/** Statuses the engine answers with that belong to no operation, and why. */
const OUTSIDE_OPERATIONS: Record<string, string> = {
  "404": "a path that matches no operation (and /docs before it is built)",
  "405": "a method the path has no operation for",
};

/** The catalogue's codes whose status the lint rule does not require and no reason excuses. */
function unlisted(catalogue: Record<string, number>): string[] {
  const required = new Set(SERVER_STATUSES.map((entry) => entry.status));
  return Object.entries(catalogue)
    .filter(
      ([, status]) => !required.has(String(status)) && !(String(status) in OUTSIDE_OPERATIONS),
    )
    .map(([code, status]) => `${status} ${code}`);
}

describe("the statuses the engine can send", () => {
  it("are each required by spec-facts/server-statuses, or answer no operation", () => {
    expect(Object.keys(ENGINE_ERROR_STATUS).length).toBeGreaterThan(5);
    expect(unlisted(ENGINE_ERROR_STATUS), "add them to openapi/src/server-statuses.ts").toEqual([]);
  });

  it("would catch a status added to the catalogue alone (a planted 418)", () => {
    expect(unlisted({ ...ENGINE_ERROR_STATUS, teapot: 418 })).toEqual(["418 teapot"]);
  });
});
