// How the published packages' versions follow the contract, as of the next release (the package
// versions once the pending changesets are applied, as "Version packages" will): api-types carries
// the contract's own version (`info.version`), and the client's major is the contract's major (a
// client N.x speaks contract N.x, at the base path that contract declares; a breaking contract
// change is a new major of both). `pnpm api-version` writes the changeset that keeps this true.
// The client is built on the api-types of its own release (its types are vendored into the
// client's tarball: scripts/pack.mjs). See packages/api-types/README.md, "Releasing".
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import getReleasePlan from "@changesets/get-release-plan";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const readJson = (url: URL | string) => JSON.parse(readFileSync(url, "utf8"));
const contract: string = readJson(require.resolve("@animal-store/openapi/openapi.json")).info
  .version;
const client = readJson(new URL("../package.json", import.meta.url));
const apiTypes = readJson(new URL("../../api-types/package.json", import.meta.url));
const major = (version: string) => Number(/^(\d+)\./.exec(version)?.[1]);
const plan = await getReleasePlan(new URL("../../..", import.meta.url).pathname);
/** A package's version once the pending changesets are applied. */
const next = (pkg: { name: string; version: string }) =>
  plan.releases.find((release) => release.name === pkg.name)?.newVersion ?? pkg.version;
const pending = `(pending changesets: ${plan.changesets.map((c) => c.id).join(", ") || "none"}; run pnpm api-version)`;

describe("versions follow the contract, at the next release", () => {
  it("@animal-store/api-types is the contract's version", () => {
    expect(next(apiTypes), `api-types ${apiTypes.version} ${pending}`).toBe(contract);
  });

  it("@animal-store/client has the contract's major", () => {
    expect(major(next(client)), `client ${client.version} ${pending}`).toBe(major(contract));
    expect(Number.isInteger(major(contract))).toBe(true);
  });

  it("the client takes api-types from the same workspace (vendored into its tarball)", () => {
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

describe("the release notes for people", () => {
  it(".changeset/README.md links only to files and sections that exist", () => {
    const changesetReadme = new URL("../../../.changeset/README.md", import.meta.url);
    const text = readFileSync(changesetReadme, "utf8");
    const links = [...text.matchAll(/\]\(([^)#]+)(?:#([^)]+))?\)/g)];
    expect(links.length).toBeGreaterThan(0);
    for (const [, file = "", anchor] of links) {
      const target = new URL(file, changesetReadme);
      expect(existsSync(target), file).toBe(true);
      if (!anchor) continue;
      const slugs = readFileSync(target, "utf8")
        .split("\n")
        .filter((line) => /^#+ /.test(line))
        .map((line) =>
          line
            .replace(/^#+ /, "")
            .toLowerCase()
            .replace(/[^a-z0-9 -]/g, "")
            .replace(/ /g, "-"),
        );
      expect(slugs, `${file}#${anchor}`).toContain(anchor);
    }
    // It names no section by a title alone (the old "Releasing the packages" pointed nowhere).
    expect(text).not.toMatch(/README's "[^"]+"/);
  });
});
