/**
 * What a page costs as the list grows (issue 22): the shipped server (SQLite) on three tables
 * seeded with SQL (1,000, 10,000 and 1,000,000 pets; 100,000 with --quick), each page of the
 * spec's largest size. Page 50 against page 1 of the 10,000 (the next links followed there, as a
 * client does), and the same pages and a filtered first page on the largest table against the
 * smallest. A ratio is the median of per-round ratios of req/s (how many times slower the deeper
 * page, or the larger table, is); its two sides run back to back, the order swapped every round,
 * so a slow stretch of a shared machine falls on both.
 */
import { join } from "node:path";
import { pagedList } from "./base-path.js";
import { pagePath, seededDatabase } from "./paging-tables.js";
import { pairRunOrder } from "./pairs.js";
import { median, ratio } from "./stats.js";
import { cpuMs, type RunningVariant, startVariant, stopVariant } from "./variant-process.js";
import { runWrk, type WrkLoad, type WrkRequest, type WrkResult } from "./wrk.js";

export interface PagingScenario {
  id: string;
  label: string;
  pets: number;
  reqPerSec: number;
  cpuUsPerRequest: number;
  p99Ms: number;
  errors: number;
}

export interface PagingFigures {
  pageSize: number;
  tables: number[];
  scenarios: PagingScenario[];
  /** How many times slower (req/s) `slower` is than `baseline`. */
  ratios: { label: string; baseline: string; slower: string; ratio: number }[];
}

interface Page {
  id: string;
  label: string;
  pets: number;
  query: string;
  n: number;
}

export async function runPagingBench(options: {
  quick: boolean;
  rounds: number;
  load: WrkLoad;
  warmupSeconds: number;
  scratchDir: string;
  log(line: string): void;
}): Promise<PagingFigures> {
  const list = pagedList();
  const tables = [1_000, 10_000, options.quick ? 100_000 : 1_000_000];
  const [small, medium, large] = tables as [number, number, number];
  const running = new Map<number, RunningVariant>();
  const count = (n: number) => n.toLocaleString("en-US");
  const size = list.pageSize;
  const page = (pets: number, label: string, query: string, n: number): Page => ({
    id: `${label} of ${pets}`,
    label,
    pets,
    query,
    n,
  });
  const first = (pets: number) => page(pets, "page 1", size, 1);
  const tenth = (pets: number) => page(pets, "page 10", size, 10);
  const filtered = (pets: number) =>
    page(pets, `${list.filter}, page 1`, `${list.filter}&${size}`, 1);
  const vs = `${count(large)} vs ${count(small)} pets`;
  // Each ratio: its label, its baseline and the page compared with it.
  const compared: [string, Page, Page][] = [
    [`page 50 vs page 1 of ${count(medium)}`, first(medium), page(medium, "page 50", size, 50)],
    [`page 1, ${vs}`, first(small), first(large)],
    [`page 10, ${vs}`, tenth(small), tenth(large)],
    [`${list.filter}, ${vs}`, filtered(small), filtered(large)],
  ];
  try {
    for (const pets of tables) {
      const path = join(options.scratchDir, `paging-${pets}.db`);
      await seededDatabase(path, pets, list.values);
      const env = { PORT: "0", METRICS_PORT: "0", HOST: "127.0.0.1", PATH: process.env.PATH ?? "" };
      const database = { ...env, DATABASE_URL: `file:${path}` };
      const variant = await startVariant("ours-sqlite", database, `${list.path}?${size}`);
      running.set(pets, variant);
      options.log(`  ${count(pets)} pets: server ready in ${variant.startMs.toFixed(0)} ms`);
    }
    const targets = new Map<string, { variant: RunningVariant; request: WrkRequest }>();
    for (const s of compared.flatMap(([, a, b]) => [a, b])) {
      const variant = running.get(s.pets) as RunningVariant;
      const path = await pagePath(variant, list.path, s.query, s.n);
      const headers = { authorization: `Bearer ${variant.key}` };
      targets.set(s.id, { variant, request: { method: "GET", path, headers } });
    }
    const warmup = { ...options.load, seconds: options.warmupSeconds };
    for (const { variant, request } of targets.values()) {
      await runWrk(variant.url, request, warmup, options.scratchDir);
    }
    const results = new Map<string, (WrkResult & { cpuUsPerRequest: number })[]>();
    for (let round = 0; round < options.rounds; round++) {
      for (const [, a, b] of compared) {
        for (const { id } of pairRunOrder(a, b, round)) {
          const { variant, request } = targets.get(id) as NonNullable<
            ReturnType<typeof targets.get>
          >;
          const cpuBefore = await cpuMs(variant.child.pid);
          const run = await runWrk(variant.url, request, options.load, options.scratchDir);
          const cpu = (((await cpuMs(variant.child.pid)) - cpuBefore) * 1000) / run.requests;
          results.set(id, [...(results.get(id) ?? []), { ...run, cpuUsPerRequest: cpu }]);
          options.log(
            `  round ${round + 1} ${id.padEnd(24)} ${run.reqPerSec.toFixed(0).padStart(6)} req/s  p99 ${run.p99Ms.toFixed(2)} ms${run.errors ? `  ERRORS ${run.errors}` : ""}`,
          );
        }
      }
    }
    const rounds = (id: string) => results.get(id) ?? [];
    const of = (id: string, field: "reqPerSec" | "cpuUsPerRequest" | "p99Ms") =>
      median(rounds(id).map((r) => r[field]));
    return {
      pageSize: list.maximum,
      tables,
      scenarios: compared.flatMap(([, a, b]) =>
        [a, b].map((s) => ({
          id: s.id,
          label: s.label,
          pets: s.pets,
          reqPerSec: of(s.id, "reqPerSec"),
          cpuUsPerRequest: of(s.id, "cpuUsPerRequest"),
          p99Ms: of(s.id, "p99Ms"),
          errors: rounds(s.id).reduce((sum, r) => sum + r.errors, 0),
        })),
      ),
      ratios: compared.map(([label, base, other]) => {
        const each = rounds(base.id).map((r, i) =>
          ratio(r.reqPerSec, rounds(other.id)[i]?.reqPerSec ?? Number.NaN),
        );
        return { label, baseline: base.id, slower: other.id, ratio: median(each) };
      }),
    };
  } finally {
    await Promise.all([...running.values()].map(stopVariant));
  }
}
