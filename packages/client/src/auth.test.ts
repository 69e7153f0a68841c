import { describe, expect, it } from "vitest";
import { createAuthorizer } from "./auth.js";

describe("createAuthorizer", () => {
  it("sets a fixed key synchronously", () => {
    const headers = new Headers();
    expect(createAuthorizer({ apiKey: "as_live_123" })(headers)).toBeUndefined();
    expect(headers.get("authorization")).toBe("Bearer as_live_123");
  });

  it("asks a key getter on every request", async () => {
    const keys = ["first", "second"];
    const authorize = createAuthorizer({ getApiKey: async () => keys.shift() ?? "none" });
    const a = new Headers();
    const b = new Headers();
    await authorize(a);
    await authorize(b);
    expect([a.get("authorization"), b.get("authorization")]).toEqual([
      "Bearer first",
      "Bearer second",
    ]);
  });

  it("refuses a key that would break the header, without repeating it", async () => {
    const secret = "sk-secret\nInjected: yes";
    expect(() => createAuthorizer({ apiKey: secret })).toThrow(TypeError);
    let message = "";
    try {
      createAuthorizer({ apiKey: secret });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/visible ASCII/);
    expect(message).not.toContain("sk-secret");
    const fromGetter = createAuthorizer({ getApiKey: () => "" });
    await expect(fromGetter(new Headers())).rejects.toThrow(/non-empty/);
  });

  it("needs a key", () => {
    // @ts-expect-error: neither apiKey nor getApiKey
    expect(() => createAuthorizer({})).toThrow(/apiKey/);
  });
});
