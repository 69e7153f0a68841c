// The API changelog entry, from the breaking-change gate's own diff: one edit of each kind on the
// current bundle (an operation added, one removed, one newly deprecated, one changed), each
// reported per operation with whether it breaks clients; and its place in a CHANGELOG.md.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { specOperations } from "@animal-store/openapi";
import { afterAll, describe, expect, it } from "vitest";
import { changelogEntry, operationChanges, writeChangelogEntry } from "../src/api-changelog.js";
import { checkBreakingChanges } from "../src/breaking-change-gate.js";
import { bundledContractPath } from "../src/contract-paths.js";

// biome-ignore lint/suspicious/noExplicitAny: fixtures edit the spec as plain JSON.
type Json = any;
const scratch = mkdtempSync(join(tmpdir(), "api-changelog-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const base: Json = JSON.parse(readFileSync(bundledContractPath(), "utf8"));
base.info.version = "1.0.0";
const ops = specOperations(base);
const deprecate = ops.find((op) => !op.deprecated && op.method === "GET");
const remove = ops.find((op) => op !== deprecate && !op.deprecated);
const change = ops.find((op) => op !== deprecate && op !== remove);
if (!deprecate || !remove || !change) throw new Error("the spec needs three operations");
// The edit's own dates: a year after every date the bundle holds, so none restates the spec's.
const latestYear = Math.max(
  ...[...JSON.stringify(base).matchAll(/"(\d{4})-\d{2}-\d{2}/g)].map((m) => Number(m[1])),
);
const since = `${latestYear + 1}-01-01`;
const sunset = `${latestYear + 6}-01-01`;

function edited(): { basePath: string; revisionPath: string } {
  const revision: Json = structuredClone(base);
  revision.info.version = "2.0.0";
  const at = (op: { path: string; method: string }) =>
    revision.paths[op.path][op.method.toLowerCase()];
  Object.assign(at(deprecate as Json), {
    deprecated: true,
    "x-deprecated-since": since,
    "x-sunset": sunset,
  });
  delete revision.paths[(remove as Json).path][(remove as Json).method.toLowerCase()];
  const changed = at(change as Json);
  changed.parameters = [
    ...(changed.parameters ?? []),
    { name: "fixtureFilter", in: "query", required: false, schema: { type: "string" } },
  ];
  revision.paths["/__changelog-fixture"] = {
    get: { operationId: "changelogFixture", responses: { "204": { description: "None." } } },
  };
  const basePath = join(scratch, "base.json");
  const revisionPath = join(scratch, "revision.json");
  writeFileSync(basePath, JSON.stringify(base));
  writeFileSync(revisionPath, JSON.stringify(revision));
  return { basePath, revisionPath };
}

describe("the API changelog entry", () => {
  it("says per operation what happened and whether it breaks clients", async () => {
    const { basePath, revisionPath } = edited();
    const verdict = await checkBreakingChanges(basePath, revisionPath);
    const revision = JSON.parse(readFileSync(revisionPath, "utf8"));
    const changes = operationChanges(base, revision, verdict.changes);
    const byId = new Map(changes.map((c) => [c.operationId, c]));
    expect(byId.get("changelogFixture")).toMatchObject({ status: "added", breaking: false });
    expect(byId.get(remove.operationId)).toMatchObject({ status: "removed", breaking: true });
    expect(byId.get(deprecate.operationId)).toMatchObject({
      status: "deprecated",
      breaking: false,
    });
    expect(byId.get(deprecate.operationId)?.details[0]).toBe(
      `deprecated since ${since}; sunset ${sunset} (410 Gone from then on)`,
    );
    expect(byId.get(change.operationId)).toMatchObject({ status: "changed", breaking: false });
    expect(byId.get(change.operationId)?.details.join("\n")).toContain("`fixtureFilter`");
    const entry = changelogEntry(basePath, revisionPath, verdict);
    expect(entry).toContain("### API 2.0.0 (compared with the released 1.0.0)");
    expect(entry).toContain(
      `- **removed** \`${remove.operationId}\` (\`${remove.method} ${remove.path}\`), breaking`,
    );
    expect(entry).toContain("**breaking** for existing clients");
  }, 60_000);

  it("goes under its version in a changesets CHANGELOG.md, once", () => {
    const file = join(scratch, "CHANGELOG.md");
    writeFileSync(
      file,
      "# @animal-store/api-types\n\n## 1.1.0\n\n### Minor Changes\n\n- abc: Contract 1.1.0\n\n## 1.0.0\n\n- first\n",
    );
    const entry = "### API 1.1.0 (compared with the released 1.0.0)\n\nNo operation changed.\n";
    writeChangelogEntry(file, "@animal-store/api-types", "1.1.0", entry);
    writeChangelogEntry(file, "@animal-store/api-types", "1.1.0", entry);
    const text = readFileSync(file, "utf8");
    expect(text.split("### API 1.1.0").length).toBe(2);
    expect(text.indexOf("## 1.1.0")).toBeLessThan(text.indexOf("### API 1.1.0"));
    expect(text.indexOf("### API 1.1.0")).toBeLessThan(text.indexOf("## 1.0.0"));
    expect(text).toContain("- abc: Contract 1.1.0");
    writeChangelogEntry(
      file,
      "@animal-store/api-types",
      "1.2.0",
      entry.replaceAll("1.1.0", "1.2.0"),
    );
    expect(readFileSync(file, "utf8").indexOf("## 1.2.0")).toBeLessThan(
      readFileSync(file, "utf8").indexOf("## 1.1.0"),
    );
  });
});
