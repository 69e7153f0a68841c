/**
 * `pnpm api-version <major|minor|patch>`, the mechanical part of a contract version bump: which
 * version the contract gets, `info.version` rewritten in openapi.yaml (only that value, the rest
 * of the file as it was), and the changeset that gives @animal-store/api-types that version and
 * @animal-store/client the same bump at the next release ("Version packages", which also records
 * the released copy). Versions count from what was last published: api-types' own version.
 */
import { isMap, isScalar, parseDocument } from "yaml";
import {
  type BumpKind,
  bumpBetween,
  bumpVersion,
  compareContractVersions,
  formatContractVersion,
  parseContractVersion,
} from "./contract-version.js";

/** What a bump does, decided before anything is written. */
export interface VersionPlan {
  /** The last published contract version (api-types' package version). */
  published: string;
  /** `info.version` now, and what it becomes. */
  current: string;
  next: string;
  /** The bump api-types and the client get at the next release (from `published` to `next`). */
  release: BumpKind;
}

/** The plan for a `kind` bump: from the published version, never below a bump already pending. */
export function versionPlan(kind: BumpKind, published: string, current: string): VersionPlan {
  const base = parseContractVersion(published);
  const now = parseContractVersion(current);
  if (compareContractVersions(now, base) < 0) {
    throw new Error(
      `info.version ${current} is older than the published @animal-store/api-types ${published}`,
    );
  }
  const wanted = bumpVersion(base, kind);
  const next = compareContractVersions(now, wanted) > 0 ? now : wanted;
  return {
    published,
    current,
    next: formatContractVersion(next),
    release: bumpBetween(base, next),
  };
}

/** `source` (openapi.yaml) with `info.version` set to `version`, every other byte kept. */
export function withInfoVersion(source: string, version: string): string {
  const document = parseDocument(source);
  const info = document.get("info", true);
  const node = isMap(info) ? info.get("version", true) : undefined;
  if (!isScalar(node) || !node.range) throw new Error("openapi.yaml has no info.version");
  const [start, end] = node.range;
  const quote = /^['"]/.exec(source.slice(start, end))?.[0] ?? "";
  return `${source.slice(0, start)}${quote}${version}${quote}${source.slice(end)}`;
}

/** The changeset (`.changeset/contract-version.md`) that releases the contract as `plan.next`. */
export function contractChangeset(plan: VersionPlan, message: string): string {
  return [
    "---",
    `"@animal-store/api-types": ${plan.release}`,
    `"@animal-store/client": ${plan.release}`,
    "---",
    "",
    `Contract ${plan.next} (info.version of openapi/openapi.yaml, ${plan.release} after ${plan.published}). ${message}`.trim(),
    "",
  ].join("\n");
}
