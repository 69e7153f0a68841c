// How the published packages' versions follow the contract: @animal-store/api-types carries the
// contract's own version (`info.version`), and @animal-store/client's major is the contract's
// major (a client 1.x speaks contract 1.x; a breaking contract change is a new major of both).
// The client depends on the api-types of its own release. See the README's "Releasing the packages".
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const readJson = (url: URL | string) => JSON.parse(readFileSync(url, "utf8"));
const contract: string = readJson(require.resolve("@animal-store/openapi/openapi.json")).info
  .version;
const client = readJson(new URL("../package.json", import.meta.url));
const apiTypes = readJson(new URL("../../api-types/package.json", import.meta.url));
const major = (version: string) => Number(/^(\d+)\./.exec(version)?.[1]);

describe("versions follow the contract", () => {
  it("@animal-store/api-types is the contract's version", () => {
    expect(apiTypes.version).toBe(contract);
  });

  it("@animal-store/client has the contract's major", () => {
    expect(major(client.version)).toBe(major(contract));
    expect(Number.isInteger(major(contract))).toBe(true);
  });

  it("the client takes api-types from the same workspace (published as that exact version)", () => {
    expect(client.dependencies["@animal-store/api-types"]).toBe("workspace:*");
  });

  it("both are published publicly, from this repository", () => {
    for (const pkg of [client, apiTypes]) {
      expect(pkg.private).not.toBe(true);
      expect(pkg.publishConfig).toMatchObject({ access: "public" });
      expect(pkg.repository.url).toMatch(/^git\+https:\/\/github\.com\//);
    }
  });
});
