#!/usr/bin/env node
/**
 * `pnpm --filter @animal-store/contract-tests run release-contract`: records the current bundled
 * contract as released (`openapi/released/openapi-<info.version>.json`), only for a version newer
 * than every released one and only when the breaking-change gate passes against the newest.
 * `--if-unreleased` (the "Version packages" step of a release) records only a version newer than
 * every released one and otherwise does nothing. `--contract FILE` and `--released-dir DIR`
 * override the defaults (used by the tests). A recorded version's API changelog entry (see
 * api-changelog.ts) goes into @animal-store/api-types' CHANGELOG.md under its version, or into
 * `--changelog FILE` (with `--released-dir`, only there).
 */
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { changelogEntry, writeChangelogEntry } from "./api-changelog.js";
import { checkBreakingChanges } from "./breaking-change-gate.js";
import {
  apiTypesChangelogPath,
  bundledContractPath,
  releasedContractsDir,
} from "./contract-paths.js";
import {
  compareContractVersions,
  latestReleasedContract,
  parseContractVersion,
  readContractVersion,
  releasedFileName,
} from "./contract-version.js";

function fail(message: string): never {
  console.error(`release-contract: ${message}`);
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    contract: { type: "string" },
    "released-dir": { type: "string" },
    changelog: { type: "string" },
    "if-unreleased": { type: "boolean", default: false },
  },
});
const current = values.contract ?? bundledContractPath();
const releasedDir = values["released-dir"] ?? releasedContractsDir();
const version = readContractVersion(current);
const target = join(releasedDir, releasedFileName(version));
const latest = latestReleasedContract(releasedDir);
const newer =
  compareContractVersions(parseContractVersion(version), parseContractVersion(latest.version)) > 0;
if (values["if-unreleased"] && !newer) {
  console.log(
    `info.version ${version} is not newer than the released ${latest.version}; nothing to record.`,
  );
  process.exit(0);
}
if (existsSync(target)) {
  if (readFileSync(target, "utf8") === readFileSync(current, "utf8")) {
    console.log(`${version} is already released as ${target}; nothing to do.`);
    process.exit(0);
  }
  fail(
    `${target} exists with other content: bump info.version before releasing a changed contract.`,
  );
}
if (!newer) {
  fail(`info.version ${version} is not newer than the released ${latest.version}.`);
}
const verdict = await checkBreakingChanges(latest.path, current);
console.log(verdict.report);
if (!verdict.passed) fail("the breaking-change gate fails; not released.");
copyFileSync(current, target);
console.log(`released ${version} as ${target}; commit it.`);
const changelog =
  values.changelog ?? (values["released-dir"] ? undefined : apiTypesChangelogPath());
if (changelog) {
  writeChangelogEntry(
    changelog,
    "@animal-store/api-types",
    version,
    changelogEntry(latest.path, current, verdict),
  );
  console.log(`wrote the API changelog entry of ${version} into ${changelog}; commit it.`);
}
