import { describe, expect, it } from "vitest";
import { ApiError, isApiErrorBody, unwrap } from "./api-error.js";

const notFound = { code: "not_found", message: "Pet 42 not found.", status: 404 } as const;

describe("unwrap", () => {
  it("returns the data of a success", () => {
    const response = new Response("[]", { status: 200 });
    expect(unwrap({ data: [1, 2], response })).toEqual([1, 2]);
  });

  it("throws an ApiError carrying the spec's Error body", () => {
    const response = new Response(null, { status: 404 });
    let caught: unknown;
    try {
      unwrap({ error: notFound, response });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    const error = caught as ApiError;
    expect([error.name, error.status, error.code]).toEqual(["ApiError", 404, "not_found"]);
    expect(error.body).toEqual(notFound);
    expect(error.message).toBe("404 not_found: Pet 42 not found.");
    expect(error.response).toBe(response);
  });

  it("reads RFC 9457 problem details, the engine's shape for a contract without its own", () => {
    const problem = {
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "Nothing has this id.",
      code: "not_found",
    };
    const error = new ApiError(new Response(null, { status: 404 }), problem);
    expect([error.status, error.code, error.body]).toEqual([404, "not_found", problem]);
    expect(error.message).toBe("404 not_found: Nothing has this id.");
    const bare = new ApiError(new Response(null, { status: 400 }), { title: "Bad", status: 400 });
    expect([bare.code, bare.message]).toEqual([undefined, "400 Bad"]);
  });

  it("still throws for a body that is not the spec's Error (e.g. a proxy's page)", () => {
    const response = new Response(null, { status: 502, statusText: "Bad Gateway" });
    expect(() => unwrap({ error: "<html>", response })).toThrow(
      /502 Bad Gateway \(the body is not an API error\)/,
    );
  });
});

describe("isApiErrorBody", () => {
  it("accepts { code, message, status } and problem details { title, status }", () => {
    expect(isApiErrorBody(notFound)).toBe(true);
    expect(isApiErrorBody({ title: "Not Found", status: 404 })).toBe(true);
    expect(isApiErrorBody({ code: "x", message: "y" })).toBe(false);
    expect(isApiErrorBody({ title: "Not Found" })).toBe(false);
    expect(isApiErrorBody({ code: "x", status: 400 })).toBe(false);
    expect(isApiErrorBody(null)).toBe(false);
    expect(isApiErrorBody("not_found")).toBe(false);
  });
});
