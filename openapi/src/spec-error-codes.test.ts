import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "./document.js";
import { connectionErrorCodes, documentedErrorCodes } from "./spec-error-codes.js";
import { specOperations } from "./spec-operations.js";

const error = (codes: string[]) => ({
  content: {
    "application/json": {
      schema: { type: "object", properties: { code: { type: "string", enum: codes } } },
    },
  },
});

describe("error code readers", () => {
  it("collect the codes every 4XX and 5XX body allows, and nothing from other statuses", () => {
    const spec = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      components: { responses: { Limited: error(["rate_limited"]) } },
      paths: {
        "/p": {
          get: {
            operationId: "g",
            responses: {
              "200": error(["not_an_error"]),
              "404": error(["not_found"]),
              "429": { $ref: "#/components/responses/Limited" },
              default: error(["internal_error"]),
            },
          },
        },
      },
    } as unknown as OpenApiDocument;
    expect(documentedErrorCodes(spec, specOperations(spec)).sort()).toEqual([
      "not_found",
      "rate_limited",
    ]);
  });

  it("read info.x-connection-errors, and none when it is absent", () => {
    const spec = {
      openapi: "3.1.0",
      info: {
        title: "t",
        version: "1",
        "x-connection-errors": {
          schema: { properties: { code: { enum: ["malformed_request", "request_timeout"] } } },
        },
      },
      paths: {},
    } as unknown as OpenApiDocument;
    expect(connectionErrorCodes(spec)).toEqual(["malformed_request", "request_timeout"]);
    expect(connectionErrorCodes({ ...spec, info: { title: "t", version: "1" } })).toEqual([]);
  });
});
