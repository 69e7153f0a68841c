/**
 * The API changelog: a human-readable entry per release, written from the difference the
 * breaking-change gate computes between the released contract and the new one (its rated
 * `redocly diff` changes). Per operation: added, removed, deprecated or changed, and whether that
 * breaks existing clients. The release writes it into @animal-store/api-types' CHANGELOG.md
 * (`release-contract`), the docs page shows those entries, and `pnpm api-version` shows the
 * pending one.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import {
  type OpenApiDocument,
  operationDeprecation,
  readSpec,
  type SpecOperation,
  specOperations,
} from "@animal-store/openapi";
import type { BreakingChangeVerdict, DiffChange } from "./breaking-change-gate.js";

/** What happened to one operation between two contracts. */
export interface OperationChange {
  operationId: string;
  method: string;
  path: string;
  status: "added" | "removed" | "deprecated" | "changed";
  breaking: boolean;
  /** One line per change that is not only documentation, most significant first. */
  details: string[];
  /** Changes to descriptions, summaries and examples only. */
  documentation: number;
}

const DOC_PROPERTIES = new Set(["description", "summary", "example", "examples", "title"]);
const RANK: Record<string, number> = { major: 2, minor: 1, patch: 0 };
const pointerOf = (path: string, method: string) =>
  `#/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method.toLowerCase()}`;
const decode = (pointer: string) =>
  pointer
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join("/");

/** A change as a sentence: what it is, where under the operation, and the diff's own words. */
function describe(change: DiffChange, operationPointer: string): string {
  const value = (change.revision?.value ?? change.base?.value) as { name?: unknown } | undefined;
  const named = value && typeof value === "object" && typeof value.name === "string";
  const where = decode(change.path.slice(operationPointer.length).replace(/^\//, ""))
    .replace(/content\/[^/]+\/[^/]+\/schema/g, "body")
    .replace(/^responses\/(\w+)/, "response $1")
    .replace(/\/headers\/([^/]+)/, ", header $1")
    .replace(/^parameters\/\d+$/, "");
  const what = [
    change.typeName ?? "value",
    named ? `\`${String(value?.name)}\`` : "",
    change.property ? `\`${change.property}\`` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const messages = (change.verdicts ?? []).map((v) => v.message).filter(Boolean);
  const at = where ? ` at \`${where}\`` : "";
  const said = messages.length > 0 ? `: ${messages.join("; ")}` : "";
  return `${change.kind ?? "changed"} ${what}${at}${said}${change.impact === "major" ? " (breaking)" : ""}`;
}

/** Per operation of either contract, what changed (operations without a change are left out). */
export function operationChanges(
  base: OpenApiDocument,
  revision: OpenApiDocument,
  changes: readonly DiffChange[],
): OperationChange[] {
  const before = specOperations(base);
  const after = specOperations(revision);
  const key = (op: SpecOperation) => `${op.method} ${op.path}`;
  const all = new Map<string, { old?: SpecOperation; now?: SpecOperation }>();
  for (const op of before) all.set(key(op), { old: op });
  for (const op of after) all.set(key(op), { ...all.get(key(op)), now: op });
  const result: OperationChange[] = [];
  for (const { old, now } of all.values()) {
    const op = (now ?? old) as SpecOperation;
    const pointer = pointerOf(op.path, op.method);
    const own = changes
      .filter((c) => c.path === pointer || c.path.startsWith(`${pointer}/`))
      .sort((a, b) => (RANK[b.impact] ?? 0) - (RANK[a.impact] ?? 0));
    const documentation = own.filter(
      (c) => c.typeName === "Example" || (c.property && DOC_PROPERTIES.has(c.property)),
    );
    const rest = own.filter((c) => !documentation.includes(c));
    const newlyDeprecated = Boolean(now?.deprecated && !old?.deprecated);
    const status = !old ? "added" : !now ? "removed" : newlyDeprecated ? "deprecated" : "changed";
    if (status === "changed" && own.length === 0) continue;
    const details = rest
      .filter((c) => !(c.property === "deprecated" && newlyDeprecated))
      .map((c) => describe(c, pointer));
    if (status === "deprecated" && now) {
      const deprecation = operationDeprecation(revision, now, after);
      const since = deprecation?.since.toISOString().slice(0, 10);
      const sunset = deprecation?.sunset?.toISOString().slice(0, 10);
      details.unshift(
        [
          since ? `deprecated since ${since}` : "deprecated",
          sunset ? `sunset ${sunset} (410 Gone from then on)` : "",
          deprecation?.successor ? `use ${deprecation.successor.text} instead` : "",
        ]
          .filter(Boolean)
          .join("; "),
      );
    }
    result.push({
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      status,
      breaking: status === "removed" || own.some((c) => c.impact === "major"),
      details: [...new Set(details)],
      documentation: documentation.length,
    });
  }
  const order = { removed: 0, added: 1, deprecated: 2, changed: 3 };
  return result.sort((a, b) => order[a.status] - order[b.status]);
}

/** The changelog entry of `revisionPath` against the released `basePath`, as Markdown. */
export function changelogEntry(
  basePath: string,
  revisionPath: string,
  verdict: BreakingChangeVerdict,
): string {
  const base = readSpec(basePath).spec;
  const revision = readSpec(revisionPath).spec;
  const operations = operationChanges(base, revision, verdict.changes);
  const breaking = operations.filter((op) => op.breaking).length + verdict.breakingChanges.length;
  const outside = verdict.changes.filter((c) => !c.path.startsWith("#/paths/")).length;
  const lines = [
    `### API ${verdict.revisionVersion} (compared with the released ${verdict.baseVersion})`,
    "",
    operations.length === 0
      ? "No operation changed."
      : `${operations.length} operation(s) changed; ${breaking > 0 ? "**breaking** for existing clients" : "nothing breaks existing clients"}.`,
    "",
  ];
  for (const op of operations) {
    const mark = op.breaking ? "breaking" : "not breaking";
    lines.push(
      `- **${op.status}** \`${op.operationId}\` (\`${op.method} ${op.path}\`), ${mark}${op.details.length + op.documentation > 0 ? ":" : ""}`,
    );
    for (const detail of op.details) lines.push(`  - ${detail}`);
    if (op.documentation > 0) {
      lines.push(`  - ${op.documentation} documentation change(s): descriptions, examples`);
    }
  }
  if (outside > 0) {
    lines.push(
      `- ${outside} change(s) outside the operations (info, servers, shared components; each already counted where an operation uses it)`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Puts `entry` into a changesets CHANGELOG.md under the heading of `version` (`## 1.1.0`, which
 * "Version packages" has just written; created when missing), replacing an entry written before
 * for the same version.
 */
export function writeChangelogEntry(
  file: string,
  packageName: string,
  version: string,
  entry: string,
) {
  let text = existsSync(file) ? readFileSync(file, "utf8") : `# ${packageName}\n`;
  const heading = `## ${version}\n`;
  const marker = `### API ${version} `;
  if (!text.includes(heading)) {
    const firstVersion = text.indexOf("\n## ");
    const at = firstVersion === -1 ? text.length : firstVersion + 1;
    text = `${text.slice(0, at).trimEnd()}\n\n${heading}\n${text.slice(at)}`;
  }
  const start = text.indexOf(marker);
  if (start !== -1) {
    const next = text.slice(start + marker.length).search(/\n## |\n### /);
    const end = next === -1 ? text.length : start + marker.length + next + 1;
    text = text.slice(0, start) + text.slice(end);
  }
  const at = text.indexOf(heading) + heading.length;
  text = `${text.slice(0, at)}\n${entry}\n${text.slice(at).replace(/^\n+/, "")}`;
  writeFileSync(file, `${text.trimEnd()}\n`);
}
