#!/usr/bin/env node
/**
 * `pnpm api-version` alone shows the pending API changelog entry: what the current bundle changes
 * against the newest released contract, per operation (api-changelog.ts), as the release will
 * write it into @animal-store/api-types' CHANGELOG.md.
 *
 * `pnpm api-version <major|minor|patch> [--message TEXT]`: bumps the contract's version for the
 * next release of @animal-store/api-types and @animal-store/client (see api-version.ts), then
 * lints, bundles and regenerates (`pnpm generate`). `--root DIR` works on another checkout and
 * `--no-generate` skips the last step (both for the tests, on a scratch copy).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { basePathOf, type OpenApiDocument, readSpec } from "@animal-store/openapi";
import { parse } from "yaml";
import { changelogEntry } from "./api-changelog.js";
import { contractChangeset, versionPlan, withInfoVersion } from "./api-version.js";
import { checkBreakingChanges } from "./breaking-change-gate.js";
import { BUMP_KINDS, type BumpKind, latestReleasedContract } from "./contract-version.js";

function fail(message: string): never {
  console.error(`api-version: ${message}`);
  process.exit(1);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    message: { type: "string", short: "m", default: "" },
    root: { type: "string" },
    "no-generate": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
const USAGE = "usage: pnpm api-version [major|minor|patch] [--message TEXT]";
if (values.help) {
  console.log(
    `${USAGE}\n\nWithout a bump: shows the pending API changelog entry (the bundled contract against the newest released one).\nWith one: sets info.version, writes .changeset/contract-version.md and runs pnpm generate.`,
  );
  process.exit(0);
}
const rootDir = values.root ?? fileURLToPath(new URL("../../..", import.meta.url));
if (positionals.length === 0) {
  const latest = latestReleasedContract(join(rootDir, "openapi", "released"));
  const bundled = join(rootDir, "openapi", "dist", "openapi.json");
  if (!existsSync(bundled)) fail(`${bundled} is missing: run pnpm bundle first.`);
  const verdict = await checkBreakingChanges(latest.path, bundled);
  console.log(
    `Pending API changelog entry (not released yet; the release writes it into packages/api-types/CHANGELOG.md):\n`,
  );
  console.log(changelogEntry(latest.path, bundled, verdict));
  process.exit(0);
}
const kind = positionals[0] as BumpKind;
if (positionals.length !== 1 || !BUMP_KINDS.includes(kind)) {
  fail(USAGE);
}
const root = rootDir;
const specPath = join(root, "openapi", "openapi.yaml");
const source = readFileSync(specPath, "utf8");
const spec = parse(source) as OpenApiDocument;
const published = JSON.parse(readFileSync(join(root, "packages/api-types/package.json"), "utf8"));

let plan: ReturnType<typeof versionPlan>;
try {
  plan = versionPlan(kind, String(published.version), String(spec.info.version));
} catch (error) {
  fail((error as Error).message);
}

// A new path version (/v1 → /v2) changes every call: only a major may carry it.
const released = latestReleasedContract(join(root, "openapi", "released"));
const before = basePathOf(readSpec(released.path).spec);
const after = basePathOf(spec);
if (before !== after && plan.release !== "major") {
  fail(
    `the base path changed from ${before} (released ${released.version}) to ${after}: every call moves, which breaks every client; run pnpm api-version major.`,
  );
}

if (plan.next !== plan.current) writeFileSync(specPath, withInfoVersion(source, plan.next));
const changeset = join(root, ".changeset", "contract-version.md");
const existed = existsSync(changeset);
writeFileSync(changeset, contractChangeset(plan, values.message ?? ""));
console.log(
  plan.next === plan.current
    ? `info.version is already ${plan.next}, a ${plan.release} after the published ${plan.published}; the changeset says so.`
    : `info.version ${plan.current} → ${plan.next} (a ${plan.release} after the published ${plan.published}).`,
);
console.log(
  `${existed ? "updated" : "wrote"} .changeset/contract-version.md: @animal-store/api-types and @animal-store/client, ${plan.release}.`,
);
if (!values["no-generate"]) {
  const generate = spawnSync("pnpm", ["generate"], { cwd: root, stdio: "inherit" });
  if (generate.status !== 0) fail("pnpm generate failed; fix the spec and run it again.");
}
console.log(
  `Commit openapi/openapi.yaml, the regenerated types and the changeset. The "Version packages" release records openapi/released/openapi-${plan.next}.json.`,
);
