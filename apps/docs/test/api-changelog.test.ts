// The docs page's "API changelog" section: the `### API x.y.z` entries of api-types' CHANGELOG.md
// (the other changesets lines left out), or, before a second release, a sentence saying so.
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM plugin without declarations
import { apiEntries, changelogSection } from "../plugins/api-changelog.js";
import { pageDefinition } from "./page.js";

const CHANGELOG = `# @animal-store/api-types

## 1.2.0

### API 1.2.0 (compared with the released 1.1.0)

- **added** \`listThings\` (\`GET /things\`), not breaking

### Minor Changes

- abc123: Contract 1.2.0

## 1.1.0

### API 1.1.0 (compared with the released 1.0.0)

No operation changed.
`;

describe("the API changelog section", () => {
  it("shows each release's API entry, newest first, and nothing else of the changelog", () => {
    expect(apiEntries(CHANGELOG).map((e: string) => e.split("\n")[0])).toEqual([
      "### API 1.2.0 (compared with the released 1.1.0)",
      "### API 1.1.0 (compared with the released 1.0.0)",
    ]);
    const section: string = changelogSection(CHANGELOG, ["openapi-1.0.0.json"]);
    expect(section.startsWith("## API changelog")).toBe(true);
    expect(section).toContain("- **added** `listThings` (`GET /things`), not breaking");
    expect(section).not.toContain("abc123");
  });

  it("says when nothing was released after the first version", () => {
    expect(changelogSection("", ["openapi-1.0.0.json"])).toContain(
      "No change to the API has been released since the first version, 1.0.0.",
    );
  });

  it("is on the built page", () => {
    expect(String((pageDefinition().info as { description?: string }).description)).toContain(
      "## API changelog",
    );
  });
});
