/**
 * The coverage report as text (printed at the end of the suite, so CI's log shows it) and as
 * JSON (written next to the package, ignored by git), and the gate's figure.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { CoverageReport } from "./fuzz-coverage.js";
import type { FuzzSettings } from "./fuzz-run.js";

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** Covered over total, and the share in percent to one decimal. */
export function percent({ covered, total }: { covered: number; total: number }): string {
  return `${covered}/${total} (${total === 0 ? "100.0" : ((100 * covered) / total).toFixed(1)}%)`;
}

/** The report as readable tables. */
export function renderCoverage(report: CoverageReport, settings: FuzzSettings): string {
  const { summary } = report;
  const statuses = table(
    ["operation", "status", "answers", "checks that got it"],
    report.statuses.map((s) => [
      s.operationId,
      s.status,
      String(s.responses),
      s.checks.join(", ") || "NONE",
    ]),
  );
  const keywords = table(
    ["operation", "location", "keyword", "broken, got 400", "on its edge, accepted", ""],
    report.keywords.map((k) => [
      k.operationId,
      k.location,
      k.keyword,
      String(k.refused),
      String(k.atEdge),
      k.unreachable ? `n/a: ${k.unreachable}` : k.exercised ? "" : "NOT EXERCISED",
    ]),
  );
  const checks = report.checks.map((c) => {
    const applied = c.appliedTo.length > 0 ? c.appliedTo.join(", ") : "NO operation";
    const notes = Object.entries(c.operations).map(
      ([id, r]) => `    ${id}: ${r.applied ? "" : "not applied: "}${r.note}`,
    );
    return [`  ${c.check}: applied to ${applied}`, ...notes].join("\n");
  });
  const outside = Object.entries(report.outside).map(([label, n]) => `  ${label}: ${n}`);
  return [
    `Fuzz coverage (FUZZ_SEED=${settings.seed}, FUZZ_RUNS=${settings.runs})`,
    "",
    `Documented statuses exercised: ${percent(summary.statuses)}`,
    statuses,
    summary.missingStatuses.length > 0 ? `missing: ${summary.missingStatuses.join(", ")}` : "",
    "",
    `Schema keywords exercised (broken and refused, or on their boundary and accepted): ${percent(summary.keywords)}`,
    keywords,
    summary.missingKeywords.length > 0 ? `missing: ${summary.missingKeywords.join(", ")}` : "",
    "",
    "Check classes:",
    ...checks,
    "",
    "Answers outside the operations:",
    ...outside,
  ]
    .filter((line, i, all) => line !== "" || all[i - 1] !== "")
    .join("\n");
}

/** Writes the report as JSON at `path` (directories created). */
export function writeCoverage(path: string, report: CoverageReport, settings: FuzzSettings): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ settings, ...report }, null, 2)}\n`);
}
