/**
 * What the fuzz suite exercised, counted as it runs: every documented status of every operation
 * (which checks saw it, which of its headers were validated), every keyword of every operation's
 * input (broken and refused, or on its boundary and accepted), answers outside the operations
 * (405, OPTIONS), and what each check class applied to. `report()` turns it into plain data.
 */
import type { FuzzContract } from "./fuzz-contract.js";
import type { RequestAnalysis } from "./request-analysis.js";
import { operationKeywords } from "./schema-keywords.js";
import type { OperationSpec } from "./spec.js";

/** What one check did for one operation. */
export interface CheckResult {
  applied: boolean;
  note: string;
}

interface StatusCell {
  responses: number;
  checks: Set<string>;
  headers: Set<string>;
}

interface KeywordTally {
  refused: number;
  edges: number;
  members: Set<string>;
}

const key = (...parts: string[]) => parts.join("\u0000");

/** The coverage ledger of one suite run. */
export class CoverageLedger {
  readonly statuses = new Map<string, StatusCell>();
  readonly outside = new Map<string, number>();
  readonly keywords = new Map<string, KeywordTally>();
  readonly checks = new Map<string, Map<string, CheckResult>>();

  constructor(readonly contract: FuzzContract) {}

  /** A response of `op`, under the documented status that answers it. */
  recordResponse(op: OperationSpec, documented: string, check: string, headers: string[]): void {
    const k = key(op.operationId, documented);
    const cell = this.statuses.get(k) ?? { responses: 0, checks: new Set(), headers: new Set() };
    cell.responses++;
    cell.checks.add(check);
    for (const h of headers) cell.headers.add(h);
    this.statuses.set(k, cell);
  }

  /** An answer outside any operation (`PUT /pets/{petId} → 405`). */
  recordOutside(label: string): void {
    this.outside.set(label, (this.outside.get(label) ?? 0) + 1);
  }

  /** Credits what a request exercised: violations when refused, edges when accepted. */
  credit(op: OperationSpec, analysis: RequestAnalysis, answer: "refused" | "accepted" | "other") {
    const list =
      answer === "refused" ? analysis.violated : answer === "accepted" ? analysis.edges : [];
    // Once per request: a body with a thousand unknown keys breaks additionalProperties once.
    const unique = new Map(list.map((e) => [key(e.location, e.keyword, e.member ?? ""), e]));
    for (const e of unique.values()) {
      const k = key(op.operationId, e.location, e.keyword);
      const tally = this.keywords.get(k) ?? { refused: 0, edges: 0, members: new Set() };
      if (answer === "refused") tally.refused++;
      else tally.edges++;
      if (e.member !== undefined) tally.members.add(e.member);
      this.keywords.set(k, tally);
    }
  }

  /** What a check did for an operation. */
  recordCheck(check: string, op: OperationSpec, result: CheckResult): void {
    const byOp = this.checks.get(check) ?? new Map<string, CheckResult>();
    byOp.set(op.operationId, result);
    this.checks.set(check, byOp);
  }

  /** The ledger as plain data, with the coverage figures. */
  report() {
    const { operations, doc } = this.contract;
    const statuses = operations.flatMap((op) =>
      Object.entries(op.responses).map(([status, documented]) => {
        const cell = this.statuses.get(key(op.operationId, status));
        const required = Object.entries(documented.headers).filter(([, h]) => h.required);
        return {
          operationId: op.operationId,
          status,
          responses: cell?.responses ?? 0,
          checks: [...(cell?.checks ?? [])].sort(),
          headersNeverSeen: required.map(([n]) => n).filter((n) => !cell?.headers.has(n)),
        };
      }),
    );
    const keywords = operations.flatMap((op) =>
      operationKeywords(op, doc).map((cell) => {
        const tally = this.keywords.get(key(op.operationId, cell.location, cell.keyword));
        const members = (cell.schema.enum as unknown[] | undefined)?.length ?? 0;
        const edge =
          cell.keyword === "enum" ? (tally?.members.size ?? 0) >= members : (tally?.edges ?? 0) > 0;
        return {
          operationId: op.operationId,
          location: cell.location,
          keyword: cell.keyword,
          refused: tally?.refused ?? 0,
          atEdge: tally?.edges ?? 0,
          exercised: cell.unreachable === undefined && ((tally?.refused ?? 0) > 0 || edge),
          unreachable: cell.unreachable ?? null,
        };
      }),
    );
    const checks = [...this.checks].map(([check, byOp]) => ({
      check,
      operations: Object.fromEntries(byOp),
      appliedTo: [...byOp].filter(([, r]) => r.applied).map(([id]) => id),
    }));
    const reachable = keywords.filter((k) => k.unreachable === null);
    const covered = statuses.filter((s) => s.responses > 0);
    return {
      statuses,
      keywords,
      outside: Object.fromEntries([...this.outside].sort()),
      checks,
      summary: {
        statuses: { covered: covered.length, total: statuses.length },
        keywords: { covered: reachable.filter((k) => k.exercised).length, total: reachable.length },
        missingStatuses: statuses
          .filter((s) => s.responses === 0)
          .map((s) => `${s.operationId} ${s.status}`),
        missingKeywords: reachable
          .filter((k) => !k.exercised)
          .map((k) => `${k.operationId} ${k.location} ${k.keyword}`),
        unreachableKeywords: keywords
          .filter((k) => k.unreachable !== null)
          .map((k) => `${k.operationId} ${k.location} ${k.keyword} (${k.unreachable})`),
      },
    };
  }
}

/** What `CoverageLedger.report` returns. */
export type CoverageReport = ReturnType<CoverageLedger["report"]>;
