import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { GET_PET_DEPRECATION_HEADERS } from "./deprecation.js";
import { GET_PET_DEPRECATED_SINCE, GET_PET_SUCCESSOR, GET_PET_SUNSET } from "./sunset.js";

const spec = JSON.parse(
  readFileSync(
    createRequire(import.meta.url).resolve("@animal-store/openapi/openapi.json"),
    "utf8",
  ),
);
const getPet = spec.paths["/pets/{petId}"].get;
const headers = spec.components.headers;

describe("getPet's deprecation dates", () => {
  it("equal x-sunset and x-deprecated-since (midnight UTC)", () => {
    expect(getPet.deprecated).toBe(true);
    expect(GET_PET_SUNSET.toISOString()).toBe(`${getPet["x-sunset"]}T00:00:00.000Z`);
    expect(GET_PET_DEPRECATED_SINCE.toISOString()).toBe(
      `${getPet["x-deprecated-since"]}T00:00:00.000Z`,
    );
  });

  it("give the Sunset header the spec's const and Deprecation its example", () => {
    expect(GET_PET_DEPRECATION_HEADERS.Sunset).toBe(headers.Sunset.schema.const);
    expect(GET_PET_DEPRECATION_HEADERS.Deprecation).toBe(headers.Deprecation.example);
    expect(GET_PET_DEPRECATION_HEADERS.Deprecation).toMatch(
      new RegExp(headers.Deprecation.schema.pattern),
    );
  });

  it("link to the successor the spec names", () => {
    expect(GET_PET_DEPRECATION_HEADERS.Link).toBe(headers.Link.example);
    expect(getPet["x-replacement"]).toBe(`GET ${GET_PET_SUCCESSOR.replace(/^\/v1/, "")}?status=`);
  });

  it("match the prose of the API and operation descriptions", () => {
    const prose = (text: string) => text.replace(/\s+/g, " ");
    const day = GET_PET_SUNSET.toLocaleDateString("en-GB", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    });
    expect(day).toBe("5 December 2030");
    expect(prose(spec.info.description)).toContain(`removed on ${day} (00:00:00 UTC)`);
    expect(prose(getPet.description)).toContain(`removed on ${day} at 00:00:00 UTC`);
  });
});
