import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM module without declarations
import { fileNameOf, identifierOf } from "../src/names.mjs";

describe("the scaffold's naming rules", () => {
  it("IDENTIFIER: camelCase of the operationId's words", () => {
    expect(identifierOf("get-stations")).toBe("getStations");
    expect(identifierOf("listItems")).toBe("listItems");
    expect(identifierOf("put_account.avatar")).toBe("putAccountAvatar");
    expect(identifierOf("GetHTTPThing")).toBe("getHTTPThing");
    expect(identifierOf("2fa-reset")).toBe("_2faReset");
    expect(identifierOf("delete")).toBe("deleteOperation");
  });

  it("FILE NAME: kebab-case of the same words", () => {
    expect(fileNameOf("get-stations")).toBe("get-stations");
    expect(fileNameOf("listItems")).toBe("list-items");
    expect(fileNameOf("put_account.avatar")).toBe("put-account-avatar");
  });
});
