// @ts-check
// The "API changelog" section of the docs page: the API entries each release wrote into
// @animal-store/api-types' CHANGELOG.md (apps/contract-tests/src/api-changelog.ts, through
// release-contract), newest first. Before any release after the first, it says so.
import { existsSync, readdirSync, readFileSync } from "node:fs";

const CHANGELOG = new URL("../../../packages/api-types/CHANGELOG.md", import.meta.url);
const RELEASED = new URL("../../../openapi/released/", import.meta.url);

/** The `### API x.y.z ...` entries of a changesets CHANGELOG.md, in file order (newest first). */
export function apiEntries(/** @type {string} */ text) {
  return text
    .split(/\n(?=#{2,3} )/)
    .filter((block) => block.startsWith("### API "))
    .map((block) => block.trim());
}

/** The section, as Markdown for the API description (entry headings one level down). */
export function changelogSection(
  text = existsSync(CHANGELOG) ? readFileSync(CHANGELOG, "utf8") : "",
  released = existsSync(RELEASED) ? readdirSync(RELEASED) : [],
) {
  const entries = apiEntries(text);
  const first = released
    .map((name) => /^openapi-(\d+\.\d+\.\d+)\.json$/.exec(name)?.[1])
    .filter(Boolean)
    .sort((a, b) => String(a).localeCompare(String(b), "en", { numeric: true }))[0];
  const body =
    entries.length > 0
      ? entries.join("\n\n")
      : `No change to the API has been released since ${first ? `the first version, ${first}` : "the first version"}.`;
  return `## API changelog\n\nWhat each release changed, per operation: added, changed, deprecated or removed, and whether it breaks existing clients (written from the difference with the previous released contract).\n\n${body}`;
}
