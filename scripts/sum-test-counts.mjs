// Sums vitest's "Tests  N passed | M failed | K skipped (T)" lines from a log into one closing line,
// so CI prints a single total for all packages. Exits 1 if no test ran or any was skipped under CI.
import { readFileSync } from "node:fs";

const log = readFileSync(process.argv[2] ?? 0, "utf8");
const totals = { passed: 0, failed: 0, skipped: 0 };
let suites = 0;
for (const line of log.split("\n")) {
  const match = /(?:^|\s)Tests\s+(.*)\(\d+\)\s*$/.exec(line);
  if (!match?.[1]) continue;
  suites += 1;
  for (const part of match[1].split("|")) {
    const [, n, kind] = /(\d+)\s+(passed|failed|skipped|todo)/.exec(part) ?? [];
    if (kind === "todo") totals.skipped += Number(n);
    else if (kind) totals[kind] += Number(n);
  }
}
console.log(`\n${suites} test runs`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : "";
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
if (suites === 0 || totals.passed === 0) process.exit(1);
if (process.env.REQUIRE_SERVICES === "1" && totals.skipped > 0) {
  console.error("Tests were skipped in CI, where every suite must run.");
  process.exit(1);
}
