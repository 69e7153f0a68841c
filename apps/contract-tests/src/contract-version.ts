/** The contract's `info.version` as a semantic version, and the released copies named after it. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A parsed `MAJOR.MINOR.PATCH` version (pre-release and build suffixes are not used here). */
export interface ContractVersion {
  major: number;
  minor: number;
  patch: number;
}

/** Parses `info.version`; throws a message naming the bad value instead of guessing. */
export function parseContractVersion(text: string): ContractVersion {
  const match = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(text);
  if (!match) throw new Error(`info.version "${text}" is not a MAJOR.MINOR.PATCH version`);
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

/** Orders two versions: negative when `a` is older, zero when equal, positive when newer. */
export function compareContractVersions(a: ContractVersion, b: ContractVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** Reads `info.version` of a bundled JSON contract. */
export function readContractVersion(path: string): string {
  const document = JSON.parse(readFileSync(path, "utf8")) as { info?: { version?: unknown } };
  const version = document.info?.version;
  if (typeof version !== "string") throw new Error(`${path} has no info.version`);
  return version;
}

const RELEASED_FILE = /^openapi-(\d+\.\d+\.\d+)\.json$/;

/** The file name a released copy of `version` gets in `openapi/released/`. */
export function releasedFileName(version: string): string {
  parseContractVersion(version);
  return `openapi-${version}.json`;
}

/** Every released copy in `dir`, newest first. */
export function listReleasedContracts(dir: string): { version: string; path: string }[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const version = RELEASED_FILE.exec(name)?.[1];
      return version ? [{ version, path: join(dir, name) }] : [];
    })
    .sort((a, b) =>
      compareContractVersions(parseContractVersion(b.version), parseContractVersion(a.version)),
    );
}

/** The newest released copy in `dir`; throws when there is none, since the gate needs a base. */
export function latestReleasedContract(dir: string): { version: string; path: string } {
  const latest = listReleasedContracts(dir)[0];
  if (!latest) throw new Error(`no released contract (openapi-X.Y.Z.json) in ${dir}`);
  return latest;
}

/** The three kinds of version bump, as semver and changesets name them. */
export const BUMP_KINDS = ["major", "minor", "patch"] as const;

/** One of BUMP_KINDS. */
export type BumpKind = (typeof BUMP_KINDS)[number];

/** `version` bumped by `kind` (a major resets minor and patch, a minor resets patch). */
export function bumpVersion(version: ContractVersion, kind: BumpKind): ContractVersion {
  if (kind === "major") return { major: version.major + 1, minor: 0, patch: 0 };
  if (kind === "minor") return { major: version.major, minor: version.minor + 1, patch: 0 };
  return { ...version, patch: version.patch + 1 };
}

/** The bump that takes `from` to the newer `to`. */
export function bumpBetween(from: ContractVersion, to: ContractVersion): BumpKind {
  if (to.major > from.major) return "major";
  return to.minor > from.minor ? "minor" : "patch";
}

/** `MAJOR.MINOR.PATCH`. */
export function formatContractVersion(version: ContractVersion): string {
  return `${version.major}.${version.minor}.${version.patch}`;
}
