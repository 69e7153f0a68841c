import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { countedOutsideApi, type OpsRoute, opsPaths } from "./ops-routes.js";

const route = (path: string): OpsRoute => ({ path, method: "POST", handle: () => {} });

describe("the application's own ops routes", () => {
  it("join the engine's paths, none of them counted", () => {
    const paths = opsPaths([route("/__mock/reset")], ["/v1"]);
    const counted = countedOutsideApi(paths);
    const request = (method: string, path: string) => ({ method, path }) as Request;
    expect(counted(request("POST", "/__mock/reset"))).toBe(false);
    expect(counted(request("GET", "/healthz"))).toBe(false);
    expect(counted(request("GET", "/v2/widgets"))).toBe(true);
    expect(counted(request("OPTIONS", "/anything"))).toBe(false);
  });

  it.each([
    ["one of the engine's", "/healthz"],
    ["the base path itself", "/v1"],
    ["under the base path", "/v1/reset"],
    ["not a path", "reset"],
  ])("refuses a path that is %s", (_what, path) => {
    expect(() => opsPaths([route(path)], ["/v1"])).toThrow(`ops route ${path}`);
  });

  it("refuses the same path twice", () => {
    expect(() => opsPaths([route("/__reset"), route("/__reset")], ["/v1"])).toThrow("/__reset");
  });
});
