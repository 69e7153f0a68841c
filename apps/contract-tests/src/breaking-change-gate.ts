/**
 * The breaking-change gate: `redocly diff` rates every change between the last released contract
 * and the current one (major / minor / patch); the gate fails on any major change unless the
 * current `info.version` has a higher major than the released one. Values added to an enum the
 * contract declares open are rated minor (`open-enums.ts`), and the changes listed in
 * `openapi/accepted-changes.yaml` as the file rates them (`accepted-changes.ts`).
 */
import { type AcceptedChange, acceptedChangeFor, readAcceptedChanges } from "./accepted-changes.js";
import { acceptedChangesPath } from "./contract-paths.js";
import {
  compareContractVersions,
  parseContractVersion,
  readContractVersion,
} from "./contract-version.js";
import { ENUM_VALUES_ADDED, isOpenEnum, readContract } from "./open-enums.js";
import { runRedocly } from "./redocly-cli.js";

/** One change `redocly diff` rated as major (breaking for existing clients). */
export interface BreakingChange {
  ruleId: string;
  message: string;
  /** JSON pointer into the revision (or the base, for removals). */
  pointer: string;
}

/** What the gate decided, with everything needed to explain it. */
export interface BreakingChangeVerdict {
  passed: boolean;
  baseVersion: string;
  revisionVersion: string;
  majorBump: boolean;
  breakingChanges: BreakingChange[];
  counts: { major: number; minor: number; patch: number };
  /** Every change `redocly diff` found, as the gate rated it (the API changelog reads them). */
  changes: DiffChange[];
  /** Human-readable explanation, printed by the CLI and by failing tests. */
  report: string;
}

export interface DiffVerdict {
  ruleId: string;
  impact: string;
  message: string;
  location?: { pointer?: string };
}
/** One change of `redocly diff`'s JSON report: where (a pointer into the paths), what, how rated. */
export interface DiffChange {
  path: string;
  impact: string;
  kind?: "added" | "removed" | "modified" | string;
  typeName?: string;
  property?: string;
  verdicts?: DiffVerdict[];
  base?: { pointer?: string; value?: unknown };
  revision?: { pointer?: string; value?: unknown };
}
interface DiffReport {
  summary: { major: number; minor: number; patch: number };
  changes: DiffChange[];
}

/**
 * Compares `revisionPath` with the released `basePath` (both bundled JSON contracts); `accepted`
 * are the changes accepted as fixes (by default, those of `openapi/accepted-changes.yaml`).
 */
export async function checkBreakingChanges(
  basePath: string,
  revisionPath: string,
  accepted: readonly AcceptedChange[] = readAcceptedChanges(acceptedChangesPath()),
): Promise<BreakingChangeVerdict> {
  const baseVersion = readContractVersion(basePath);
  const revisionVersion = readContractVersion(revisionPath);
  const base = parseContractVersion(baseVersion);
  const revision = parseContractVersion(revisionVersion);
  const majorBump = revision.major > base.major;
  const revisionContract = readContract(revisionPath);
  const acceptedLines: string[] = [];
  const diff = rerate(await runDiff(basePath, revisionPath), (verdict, pointer) => {
    if (verdict.ruleId === ENUM_VALUES_ADDED && isOpenEnum(revisionContract, pointer)) {
      return { impact: "minor", message: `${verdict.message} (an open enum: x-open-enum)` };
    }
    const fix = acceptedChangeFor(accepted, verdict, pointer);
    if (fix === undefined) return undefined;
    acceptedLines.push(`  ACCEPTED as ${fix.rating} ${fix.ruleId} (${pointer}): ${fix.reason}`);
    return { impact: fix.rating, message: `${verdict.message} (accepted: ${fix.reason})` };
  });
  const breakingChanges = diff.changes
    .filter((change) => change.impact === "major")
    .flatMap((change) =>
      (change.verdicts ?? [])
        .filter((verdict) => verdict.impact === "major")
        .map((verdict) => ({
          ruleId: verdict.ruleId,
          message: verdict.message,
          pointer: verdict.location?.pointer ?? change.path,
        })),
    );
  const wentBackwards = compareContractVersions(revision, base) < 0;
  const blocked = diff.summary.major > 0 && !majorBump;
  const lines = [
    `contract ${baseVersion} (released) → ${revisionVersion} (current): ` +
      `${diff.summary.major} major, ${diff.summary.minor} minor, ${diff.summary.patch} patch change(s)`,
    ...breakingChanges.map((c) => `  BREAKING ${c.ruleId}: ${c.message} (${c.pointer})`),
    ...acceptedLines,
  ];
  if (wentBackwards)
    lines.push(`FAIL: info.version went backwards (${baseVersion} → ${revisionVersion}).`);
  if (blocked) {
    lines.push(
      `FAIL: breaking changes need a major version: set info.version to ${base.major + 1}.0.0 ` +
        "(or undo them).",
    );
  } else if (diff.summary.major > 0) {
    lines.push(`PASS: breaking changes allowed by the major bump to ${revisionVersion}.`);
  }
  return {
    passed: !blocked && !wentBackwards,
    baseVersion,
    revisionVersion,
    majorBump,
    breakingChanges,
    counts: diff.summary,
    changes: diff.changes,
    report: lines.join("\n"),
  };
}

const IMPACTS = ["patch", "minor", "major"] as const;

/**
 * The diff with major verdicts re-rated where `rating` says (values added to an open enum, an
 * accepted fix): each such verdict, the change's impact (its highest verdict's) and the
 * summary's counts follow.
 */
function rerate(
  diff: DiffReport,
  rating: (
    verdict: DiffVerdict,
    pointer: string,
  ) => { impact: string; message: string } | undefined,
): DiffReport {
  const changes = diff.changes.map((change) => {
    if (change.impact !== "major" || !change.verdicts) return change;
    const verdicts = change.verdicts.map((verdict) => {
      if (verdict.impact !== "major") return verdict;
      const rated = rating(verdict, verdict.location?.pointer ?? change.path);
      return rated === undefined ? verdict : { ...verdict, ...rated };
    });
    const rank = (impact: string) => IMPACTS.indexOf(impact as (typeof IMPACTS)[number]);
    const impact = verdicts.reduce(
      (top, v) => (rank(v.impact) > rank(top) ? v.impact : top),
      "patch",
    );
    return { ...change, impact, verdicts };
  });
  const summary = { ...diff.summary };
  changes.forEach((c, i) => {
    const before = diff.changes[i]?.impact;
    if (c.impact === before || before === undefined) return;
    summary[before as keyof typeof summary]--;
    summary[c.impact as keyof typeof summary]++;
  });
  return { summary, changes };
}

/** Runs `redocly diff --format json`; any failure of the tool itself fails the gate loudly. */
async function runDiff(basePath: string, revisionPath: string): Promise<DiffReport> {
  const run = await runRedocly([
    "diff",
    basePath,
    revisionPath,
    "--format",
    "json",
    "--fail-on",
    "none",
  ]);
  try {
    if (run.exitCode !== 0) throw new Error(`exit code ${run.exitCode}`);
    const report = JSON.parse(run.stdout) as DiffReport;
    if (!report.summary || !Array.isArray(report.changes))
      throw new Error("unexpected report shape");
    return report;
  } catch (error) {
    throw new Error(
      `redocly diff did not produce a report (${(error as Error).message}):\n${run.output}`,
    );
  }
}
