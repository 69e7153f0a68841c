#!/usr/bin/env node
/**
 * `pnpm --filter @animal-store/contract-tests run breaking [-- --base FILE --revision FILE]`:
 * compares the current bundled contract with the newest released copy and exits 1 on a breaking
 * change that `info.version` does not allow.
 */
import { parseArgs } from "node:util";
import { checkBreakingChanges } from "./breaking-change-gate.js";
import { bundledContractPath, releasedContractsDir } from "./contract-paths.js";
import { latestReleasedContract } from "./contract-version.js";

const { values } = parseArgs({
  options: { base: { type: "string" }, revision: { type: "string" } },
});

try {
  const base = values.base ?? latestReleasedContract(releasedContractsDir()).path;
  const verdict = await checkBreakingChanges(base, values.revision ?? bundledContractPath());
  console.log(verdict.report);
  process.exitCode = verdict.passed ? 0 : 1;
} catch (error) {
  console.error(`breaking-change gate: ${(error as Error).message}`);
  process.exitCode = 2;
}
