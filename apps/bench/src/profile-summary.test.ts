import { describe, expect, it } from "vitest";
import { type CpuProfile, moduleOf, summariseProfile } from "./profile-summary.js";

describe("moduleOf", () => {
  it("names pnpm packages, our built packages and node internals", () => {
    expect(
      moduleOf("file:///r/node_modules/.pnpm/express@5.3.0/node_modules/express/lib/response.js"),
    ).toBe("express@5.3.0");
    expect(
      moduleOf(
        "file:///r/node_modules/.pnpm/express-openapi-validator@5.6.2_@types+json-schema@7.0.15_express@5.3.0/node_modules/x.js",
      ),
    ).toBe("express-openapi-validator@5.6.2");
    expect(
      moduleOf("file:///r/node_modules/.pnpm/@redocly+cli@2.77.0/node_modules/@redocly/cli/x.js"),
    ).toBe("cli@2.77.0");
    expect(moduleOf("file:///work/main/apps/server/dist/handlers/index.js")).toBe(
      "server/handlers",
    );
    expect(moduleOf("node:_http_outgoing")).toBe("node:_http_outgoing");
    expect(moduleOf("")).toBeNull();
  });
});

describe("summariseProfile", () => {
  const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
  // root → handler (our server) → stringify (express); samples: 3 in stringify, 1 in handler.
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame("(root)", ""), children: [2] },
      { id: 2, callFrame: frame("handle", "file:///r/apps/server/dist/app.js"), children: [3] },
      {
        id: 3,
        callFrame: frame(
          "stringify",
          "file:///r/node_modules/.pnpm/express@5.3.0/node_modules/express/lib/response.js",
        ),
      },
    ],
    samples: [3, 3, 3, 2],
    timeDeltas: [10, 10, 10, 10],
  };
  const summary = summariseProfile(profile);

  it("gives self time per function, largest first", () => {
    expect(summary.self[0]).toEqual({ name: "stringify express@5.3.0:1", percent: 75 });
    expect(summary.self[1]).toEqual({ name: "handle server/app:1", percent: 25 });
  });

  it("gives self time per module", () => {
    expect(summary.moduleSelf).toEqual([
      { name: "express@5.3.0", percent: 75 },
      { name: "server/app", percent: 25 },
    ]);
  });

  it("gives inclusive time per module: a caller includes what it calls", () => {
    expect(summary.modules).toEqual([
      { name: "server/app", percent: 100 },
      { name: "express@5.3.0", percent: 75 },
    ]);
  });
});
