import { describe, expect, it } from "vitest";
import { evaluateLinkExpression, type LinkSource } from "./link-expressions.js";

const source: LinkSource = {
  method: "POST",
  url: "http://x/api/pets",
  request: {
    path: { petId: "7" },
    query: [["limit", "5"]],
    headers: { "X-Tenant": "t1" },
    body: { text: '{"name":"Rex"}', value: { name: "Rex", "a/b": { "~c": 3 } } },
  },
  status: 201,
  headers: new Headers({ location: "/api/pets/9" }),
  body: { id: 9, tags: ["a", "b"] },
};

describe("link runtime expressions", () => {
  it("reads the response body, headers and status", () => {
    expect(evaluateLinkExpression("$response.body#/id", source)).toBe(9);
    expect(evaluateLinkExpression("$response.body#/tags/1", source)).toBe("b");
    expect(evaluateLinkExpression("$response.body#/missing", source)).toBeUndefined();
    expect(evaluateLinkExpression("$response.header.Location", source)).toBe("/api/pets/9");
    expect(evaluateLinkExpression("$statusCode", source)).toBe(201);
  });

  it("reads the request's parameters and body, JSON Pointer escapes decoded", () => {
    expect(evaluateLinkExpression("$request.path.petId", source)).toBe("7");
    expect(evaluateLinkExpression("$request.query.limit", source)).toBe("5");
    expect(evaluateLinkExpression("$request.header.x-tenant", source)).toBe("t1");
    expect(evaluateLinkExpression("$request.body#/a~1b/~0c", source)).toBe(3);
    expect(evaluateLinkExpression("$method", source)).toBe("POST");
  });

  it("keeps constants and refuses what it cannot evaluate", () => {
    expect(evaluateLinkExpression(42, source)).toBe(42);
    expect(evaluateLinkExpression("plain", source)).toBe("plain");
    expect(() => evaluateLinkExpression("$response.trailer.x", source)).toThrow(/not supported/);
  });
});
