import { basePath } from "@animal-store/test-support/spec-values";
import { describe, expect, it } from "vitest";
import { apiUrlFromEnv, mockApiUrl } from "./api-url.mjs";

describe("apiUrlFromEnv", () => {
  it("defaults to where pnpm mock listens, under the spec's base path", () => {
    expect(apiUrlFromEnv({})).toBe(mockApiUrl());
    expect(new URL(mockApiUrl()).pathname).toBe(basePath);
    expect(mockApiUrl({ MOCK_PORT: "4999" })).toBe(`http://127.0.0.1:4999${basePath}`);
  });

  it("takes WEB_API_URL without a trailing slash", () => {
    expect(apiUrlFromEnv({ WEB_API_URL: "http://127.0.0.1:8080/v1/" })).toBe(
      "http://127.0.0.1:8080/v1",
    );
  });

  it("refuses what is not an http(s) base URL", () => {
    for (const bad of ["127.0.0.1:8080/v1", "ftp://x/v1", "http://x/v1?a=1"]) {
      expect(() => apiUrlFromEnv({ WEB_API_URL: bad }), bad).toThrow(/WEB_API_URL/);
    }
  });
});
