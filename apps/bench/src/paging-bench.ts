/**
 * What a page costs as the list grows (issue 22): the shipped server (SQLite) on three tables
 * seeded with SQL (1,000, 10,000 and 1,000,000 pets; 100,000 with --quick), each page read with
 * the spec's largest page size. Page 1 against page 50 of the 10,000 (the next links followed
 * there, as a client does), and the same pages and a status-filtered first page on 1,000,000
 * against 1,000. Scenarios run in interleaved rounds; a ratio is the median of per-round ratios of
 * req/s (how many times slower the deeper page, or the larger table, is).
 */
import { join } from "node:path";
import { pagedList, pagePath, seededDatabase } from "./paging-tables.js";
import { median, ratio } from "./stats.js";
import { cpuMs, type RunningVariant, startVariant, stopVariant } from "./variant-process.js";
import { runWrk, type WrkLoad, type WrkResult } from "./wrk.js";

/** One scenario's figures. */
export interface PagingScenario {
  id: string;
  label: string;
  pets: number;
  reqPerSec: number;
  cpuUsPerRequest: number;
  p99Ms: number;
  errors: number;
}

/** One comparison: how many times slower `slower` is than `baseline` (req/s). */
export interface PagingRatio {
  label: string;
  baseline: string;
  slower: string;
  ratio: number;
}

/** The section's figures. */
export interface PagingFigures {
  pageSize: number;
  tables: number[];
  scenarios: PagingScenario[];
  ratios: PagingRatio[];
}

/** Options of the paging bench. */
export interface PagingBenchOptions {
  quick: boolean;
  rounds: number;
  load: WrkLoad;
  warmupSeconds: number;
  scratchDir: string;
  log(line: string): void;
}

/** One round's run order: each pair back to back, baseline first in even rounds, last in odd. */
export function pairRunOrder<T>(pairs: readonly (readonly T[])[], round: number): T[] {
  return pairs.flatMap((pair) => (round % 2 === 0 ? [...pair] : [...pair].reverse()));
}

/** Runs the section; every variant it starts is stopped before it returns or throws. */
export async function runPagingBench(options: PagingBenchOptions): Promise<PagingFigures> {
  const list = pagedList();
  const tables = [1_000, 10_000, options.quick ? 100_000 : 1_000_000];
  const [small, medium, large] = tables as [number, number, number];
  const running = new Map<number, RunningVariant>();
  try {
    for (const pets of tables) {
      const path = join(options.scratchDir, `paging-${pets}.db`);
      const seeding = performance.now();
      await seededDatabase(path, pets, list.values);
      const env = { PORT: "0", METRICS_PORT: "0", HOST: "127.0.0.1", PATH: process.env.PATH ?? "" };
      const database = { ...env, DATABASE_URL: `file:${path}` };
      const variant = await startVariant("ours-sqlite", database, `${list.path}?${list.pageSize}`);
      running.set(pets, variant);
      options.log(
        `  ${pets.toLocaleString("en-US")} pets seeded in ${(performance.now() - seeding).toFixed(0)} ms, server ready in ${variant.startMs.toFixed(0)} ms`,
      );
    }
    const size = list.pageSize;
    const filtered = `${list.filter}&${size}`;
    const plan: { id: string; label: string; pets: number; query: string; page: number }[] = [
      { id: "p1-10k", label: "page 1", pets: medium, query: size, page: 1 },
      { id: "p50-10k", label: "page 50", pets: medium, query: size, page: 50 },
      ...[small, large].flatMap((pets) => [
        { id: `p1-${pets}`, label: "page 1", pets, query: size, page: 1 },
        { id: `p10-${pets}`, label: "page 10", pets, query: size, page: 10 },
        {
          id: `status-p1-${pets}`,
          label: `${list.filter}, page 1`,
          pets,
          query: filtered,
          page: 1,
        },
      ]),
    ];
    const scenarios = await Promise.all(
      plan.map(async (s) => ({
        ...s,
        path: await pagePath(running.get(s.pets) as RunningVariant, list.path, s.query, s.page),
      })),
    );
    const results = new Map<string, (WrkResult & { cpuUsPerRequest: number })[]>();
    /** The scenario's variant and the request wrk repeats on it. */
    const target = (s: (typeof scenarios)[number]) => {
      const variant = running.get(s.pets) as RunningVariant;
      const headers = { authorization: `Bearer ${variant.key}` };
      return { variant, request: { method: "GET" as const, path: s.path, headers } };
    };
    for (const s of scenarios) {
      const { variant, request } = target(s);
      await runWrk(
        variant.url,
        request,
        { ...options.load, seconds: options.warmupSeconds },
        options.scratchDir,
      );
    }
    const count = (n: number) => n.toLocaleString("en-US");
    // Each ratio: its label, then the ids of its baseline and of the scenario compared with it.
    const compared: [string, string, string][] = [
      [`page 50 vs page 1 of ${count(medium)}`, "p1-10k", "p50-10k"],
      [`page 1, ${count(large)} vs ${count(small)} pets`, `p1-${small}`, `p1-${large}`],
      [`page 10, ${count(large)} vs ${count(small)} pets`, `p10-${small}`, `p10-${large}`],
      [
        `${list.filter}, ${count(large)} vs ${count(small)} pets`,
        `status-p1-${small}`,
        `status-p1-${large}`,
      ],
    ];
    const byId = new Map(scenarios.map((s) => [s.id, s]));
    const pairs = compared.map(([, ...pair]) =>
      pair.map((id) => {
        const scenario = byId.get(id);
        if (scenario === undefined) throw new Error(`paging: no scenario ${id} to compare`);
        return scenario;
      }),
    );
    if (pairs.flat().length !== scenarios.length) {
      throw new Error("paging: every scenario must be in exactly one compared pair");
    }
    // Each ratio's two scenarios run back to back, the order swapped every round: a slower
    // stretch of a shared machine then falls on both sides of a ratio rather than on one.
    for (let round = 0; round < options.rounds; round++) {
      for (const s of pairRunOrder(pairs, round)) {
        const { variant, request } = target(s);
        const cpuBefore = await cpuMs(variant.child.pid);
        const run = await runWrk(variant.url, request, options.load, options.scratchDir);
        const cpuUsPerRequest =
          (((await cpuMs(variant.child.pid)) - cpuBefore) * 1000) / run.requests;
        results.set(s.id, [...(results.get(s.id) ?? []), { ...run, cpuUsPerRequest }]);
        options.log(
          `  round ${round + 1} ${s.id.padEnd(16)} ${run.reqPerSec.toFixed(0).padStart(6)} req/s  p99 ${run.p99Ms.toFixed(2)} ms${run.errors ? `  ERRORS ${run.errors}` : ""}`,
        );
      }
    }
    const rounds = (id: string) => results.get(id) ?? [];
    const slower = (label: string, baseline: string, other: string): PagingRatio => ({
      label,
      baseline,
      slower: other,
      ratio: median(
        rounds(baseline).map((r, i) =>
          ratio(r.reqPerSec, rounds(other)[i]?.reqPerSec ?? Number.NaN),
        ),
      ),
    });
    return {
      pageSize: list.maximum,
      tables,
      scenarios: scenarios.map((s) => ({
        id: s.id,
        label: s.label,
        pets: s.pets,
        reqPerSec: median(rounds(s.id).map((r) => r.reqPerSec)),
        cpuUsPerRequest: median(rounds(s.id).map((r) => r.cpuUsPerRequest)),
        p99Ms: median(rounds(s.id).map((r) => r.p99Ms)),
        errors: rounds(s.id).reduce((sum, r) => sum + r.errors, 0),
      })),
      ratios: compared.map(([label, baseline, other]) => slower(label, baseline, other)),
    };
  } finally {
    await Promise.all([...running.values()].map((variant) => stopVariant(variant)));
  }
}
