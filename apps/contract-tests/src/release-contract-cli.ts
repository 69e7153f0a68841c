#!/usr/bin/env node
/**
 * `pnpm --filter @animal-store/contract-tests run release-contract`: records the current bundled
 * contract as released (`openapi/released/openapi-<info.version>.json`), after the breaking-change
 * gate passed and only for a version newer than every released one.
 */
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkBreakingChanges } from "./breaking-change-gate.js";
import { bundledContractPath, releasedContractsDir } from "./contract-paths.js";
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

const current = bundledContractPath();
const version = readContractVersion(current);
const target = join(releasedContractsDir(), releasedFileName(version));
if (existsSync(target)) {
  if (readFileSync(target, "utf8") === readFileSync(current, "utf8")) {
    console.log(`${version} is already released as ${target}; nothing to do.`);
    process.exit(0);
  }
  fail(
    `${target} exists with other content: bump info.version before releasing a changed contract.`,
  );
}
const latest = latestReleasedContract(releasedContractsDir());
if (
  compareContractVersions(parseContractVersion(version), parseContractVersion(latest.version)) <= 0
) {
  fail(`info.version ${version} is not newer than the released ${latest.version}.`);
}
const verdict = await checkBreakingChanges(latest.path, current);
console.log(verdict.report);
if (!verdict.passed) fail("the breaking-change gate fails; not released.");
copyFileSync(current, target);
console.log(`released ${version} as ${target}; commit it.`);
