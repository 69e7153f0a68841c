/** Renders a run as the Markdown of bench/results/latest.md (quoted in apps/bench/README.md). */
import type { MockFigures } from "./mock-bench.js";
import type { BenchResults, Section } from "./results.js";
import { cpuRatioInterval, launchRatios, type VariantFigures } from "./server-bench.js";

const int = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString("en-US") : "n/a");
const dec = (v: number, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");
export const times = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : "n/a");
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** A Markdown table. */
export function table(head: string[], rows: string[][]): string {
  // A pipe inside a cell (an error message) would split it.
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

function section<T>(title: string, s: Section<T>, render: (value: T) => string): string {
  return `### ${title}\n\n${s.ok ? render(s.value) : `Not measured: ${s.reason}`}\n`;
}

/**
 * Each mock mode's start-to-ready and throughput per scenario, and the server's (variant (a), as
 * shipped) in the same columns when the server section ran.
 */
function mockTable(m: MockFigures, server: VariantFigures | undefined): string {
  const scenarios = m.modes[0]?.scenarios ?? [];
  const cell = (f: { reqPerSec: number; p99Ms: number } | undefined) =>
    f ? `${int(f.reqPerSec)} (${dec(f.p99Ms)})` : "n/a";
  const rows = m.modes.map((mode) => [
    mode.label,
    int(mode.startMs),
    ...scenarios.map((s) => cell(mode.scenarios.find((x) => x.id === s.id))),
  ]);
  if (server) {
    rows.push([
      "server (a), as shipped (`NODE_ENV=production`)",
      int(server.startMs),
      ...scenarios.map((s) => cell(server.scenarios[s.id])),
    ]);
  }
  return table(
    ["", "start to ready (ms)", ...scenarios.map((s) => `${s.label}: req/s (p99 ms)`)],
    rows,
  );
}

/** The machine line every published table carries. */
export function machineLine(r: BenchResults): string {
  const m = r.machine;
  const steady = r.steadiness
    ? `; steadiness ${r.steadiness.start.spread}x at start, ${r.steadiness.end.spread}x at end (the same work's CPU time, 90th percentile over 10th, in samples of about 0.1 s: 1.00 is steady)`
    : "";
  return `${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB RAM, ${m.os}, Node ${m.node}, ${m.wrk ?? "no wrk"}; load average ${m.loadAtStart.join(" / ")} at start, ${r.loadAtEnd} at end${steady}; ${r.startedAt.slice(0, 16).replace("T", " ")} UTC, commit ${m.commit ?? "?"}.`;
}

/** The whole report. */
export function renderMarkdown(r: BenchResults): string {
  const s = r.settings;
  const parts = [
    "# Benchmark results (`pnpm bench`)",
    "",
    `Machine: ${machineLine(r)}`,
    `Run: ${r.durationSeconds.toFixed(0)} s. Server figures: wrk, ${s.threads} thread, ${s.connections} connections, ${s.rounds} interleaved rounds of ${s.seconds} s${(s.launches ?? 1) > 1 ? ` in ${s.launches} launches of every variant (each restarted between them, after a ${s.warmupSeconds} s warm-up each)` : ` (after a ${s.warmupSeconds} s warm-up)`}${(s.roundWarmupSeconds ?? 0) > 0 ? `; each measured run right after ${s.roundWarmupSeconds} s of the same load on the same variant, not counted` : ""}; req/s and latency are medians of rounds, the table's ratios the median of per-round ratios.${s.pairRuns ? " The targets' ratios come from the pairs, measured run against run (below)." : ""}`,
    ...r.notes.map((note) => `Note: ${note}`),
    "",
    "### Targets",
    "",
    table(
      ["target", "goal", "this run", "met"],
      r.targets.map((t) => [
        t.label,
        t.goal,
        t.actual,
        t.met === null ? "not measured" : t.met ? "yes" : "**no**",
      ]),
    ),
    "",
    section("Server throughput and latency", r.server, (variants) => {
      const compared = variants.some((v) => v.id === "ours-before");
      const metricsOff = variants.some((v) => v.id === "ours-no-metrics");
      const fastify = variants.some((v) => v.id === "fastify-glue");
      // CPU per request first: the figure other work on a shared machine disturbs least.
      const rows = variants.flatMap((v) =>
        Object.entries(v.scenarios).map(([id, f]) => [
          v.label,
          id,
          int(f.cpuUsPerRequest),
          int(f.reqPerSec),
          dec(f.p50Ms),
          dec(f.p99Ms),
          times(f.cpuVsRaw),
          ...(fastify ? [times(f.cpuVsFastify)] : []),
          times(f.vsExpress),
          times(f.vsRaw),
          ...(fastify ? [times(f.vsFastify)] : []),
          ...(compared ? [times(f.vsBefore)] : []),
          ...(metricsOff ? [times(f.cpuVsNoMetrics)] : []),
          f.errors === 0 ? "0" : `**${f.errors}**`,
        ]),
      );
      const head = [
        "variant",
        "scenario",
        "CPU µs/req",
        "req/s",
        "p50 ms",
        "p99 ms",
        "CPU vs node:http",
        ...(fastify ? ["CPU vs Fastify"] : []),
        "req/s vs Express",
        "req/s vs node:http",
        ...(fastify ? ["req/s vs Fastify"] : []),
      ];
      const startRows = variants.map((v) => [
        v.label,
        int(v.startMs),
        dec(v.firstRequestMs, 1),
        int(v.rssAfterMb),
      ]);
      return [
        table(
          [
            ...head,
            ...(compared ? ["req/s vs before"] : []),
            ...(metricsOff ? ["CPU/req vs metrics off"] : []),
            "errors",
          ],
          rows,
        ),
        "",
        table(
          ["variant", "start to ready (ms)", "first request (ms)", "RSS after run (MB)"],
          startRows,
        ),
      ].join("\n");
    }),
    ...(r.pairs
      ? [
          section("Pairs, run against run (the targets' ratios)", r.pairs, (pairs) => {
            const label = (id: string) =>
              (r.server.ok ? r.server.value.find((v) => v.id === id)?.label : undefined) ?? id;
            const errors = (p: (typeof pairs)[number]) =>
              p.runs.reduce((sum, run) => sum + run.subject.errors + run.baseline.errors, 0);
            return [
              s.pairLaunches !== undefined
                ? `Each pair after the rounds, in ${s.pairLaunches} launches of its own (in each, the pair's two variants alone started, warmed up ${s.warmupSeconds} s on each scenario, measured, stopped; the launches go round the pairs): ${s.pairRuns} runs of ${s.pairSeconds} s of each side in all, split between the launches, the two sides back to back and their order swapped every run. A ratio is the median of the runs' ratios (subject over baseline); its 95% interval is the bootstrap interval of that median (2,000 resamples, launches drawn first, then runs within them, so a launch's own luck is in it): how far the median of another run as noisy as this one could land; the range is the lowest and highest run; each launch's ratio is the median of that launch's runs, one pair of processes each (how far a process's own luck moved it).`
                : `Each pair in every launch's processes, after that launch's rounds: ${s.pairRuns} runs of ${s.pairSeconds} s of each side in all${(s.launches ?? 1) > 1 ? `, split between the ${s.launches} launches` : ""}, the two sides back to back and their order swapped every run, after a ${s.warmupSeconds} s warm-up of each in each launch. A ratio is the median of the runs' ratios (subject over baseline); its 95% interval is the bootstrap interval of that median (2,000 resamples of the runs): how far the median of another run as noisy as this one could land; the range is the lowest and highest run${(s.launches ?? 1) > 1 ? "; each launch's ratio is the median of that launch's runs, one pair of processes each (how far a process's own luck moved it)" : ""}.`,
              "",
              table(
                [
                  "subject",
                  "baseline",
                  "scenario",
                  "CPU µs/req: subject",
                  "baseline",
                  "CPU ratio",
                  "95% interval",
                  "runs' range",
                  "each launch's ratio",
                  "req/s ratio",
                  "errors",
                ],
                pairs.map((p) => [
                  label(p.subject),
                  label(p.baseline),
                  p.scenario,
                  int(p.subjectCpuUs),
                  int(p.baselineCpuUs),
                  times(p.cpuRatio),
                  cpuRatioInterval(p.runs).map(times).join(" to "),
                  p.cpuRatioRange.map(times).join(" to "),
                  launchRatios(p.runs, s.pairRuns ?? p.runs.length, s.launches ?? 1)
                    .map(times)
                    .join(" / ") || "n/a",
                  times(p.reqPerSecRatio),
                  errors(p) === 0 ? "0" : `**${errors(p)}**`,
                ]),
              ),
            ].join("\n");
          }),
        ]
      : []),
    ...(r.instructions
      ? [
          section("Instructions per request (callgrind)", r.instructions, (ins) => {
            // Every server counted gets a column; the ratio is the first one's over the second's.
            const ids = Object.keys(ins.ratios) as (keyof typeof ins.ratios)[];
            const kilo = (v: number | undefined) => (v === undefined ? "" : `${int(v / 1000)}k`);
            return [
              `User-space instructions (the server's JavaScript, V8, Node, libuv, SQLite; not the kernel's socket work) per request, each server under \`valgrind --tool=callgrind\`: ${int(ins.counted)} requests of each scenario counted after ${int(ins.warmup)} not counted, on 8 keep-alive connections. Unlike CPU time, the count does not depend on how fast the machine ran: the steady figure beside the pairs.`,
              "",
              table(
                ["scenario", ...ins.variants.map((v) => v.label), "ratio"],
                ids.map((id) => [
                  id,
                  ...ins.variants.map((v) => kilo(v.perRequest[id])),
                  times(ins.ratios[id] as number),
                ]),
              ),
            ].join("\n");
          }),
        ]
      : []),
    section("Paging: what a page costs deep in the list and in a large table", r.paging, (p) =>
      [
        `The shipped server (SQLite) on tables of ${p.tables.map(int).join(", ")} pets seeded with SQL, pages of ${p.pageSize}; each next link followed as a client does. A ratio is how many times slower (req/s) the second page or table is than the first: the median of per-round ratios.`,
        "",
        table(
          ["pets", "page", "req/s", "CPU µs/req", "p99 ms", "errors"],
          p.scenarios.map((x) => [
            int(x.pets),
            x.label,
            int(x.reqPerSec),
            int(x.cpuUsPerRequest),
            dec(x.p99Ms),
            x.errors === 0 ? "0" : `**${x.errors}**`,
          ]),
        ),
        "",
        table(
          ["comparison", "cost ratio"],
          p.ratios.map((x) => [x.label, times(x.ratio)]),
        ),
      ].join("\n"),
    ),
    section("Client (per call, GET /pets?limit=20, sequential)", r.client, (c) =>
      [
        `${int(c.calls)} calls per client, the three interleaved call by call. CPU is the bench process's own (the clients; every server is a child process). Figures are medians of per-call figures; ratios are of those medians to raw fetch's. Mean time per call (µs), which the machine's stalls and collections move more: ${[
          ["ours", c.againstOurs],
          ["raw node:http", c.againstRaw],
        ]
          .map(
            ([label, t]) =>
              `against ${label} raw fetch ${int((t as typeof c.againstOurs).meanUs.rawFetch)}, openapi-fetch ${int((t as typeof c.againstOurs).meanUs.openapiFetch)}, @animal-store/client ${int((t as typeof c.againstOurs).meanUs.ours)}`,
          )
          .join("; ")}.`,
        "",
        table(
          [
            "server",
            "CPU µs: raw fetch",
            "openapi-fetch",
            "@animal-store/client",
            "client CPU vs fetch",
            "time µs: raw fetch",
            "openapi-fetch",
            "@animal-store/client",
            "openapi-fetch vs fetch",
            "client vs fetch",
          ],
          [
            ["ours (SQLite, as shipped)", c.againstOurs],
            ["raw node:http", c.againstRaw],
          ].map(([label, t]) => {
            const x = t as typeof c.againstOurs;
            return [
              label as string,
              int(x.rawFetchCpuUs),
              int(x.openapiFetchCpuUs),
              int(x.oursCpuUs),
              times(x.oursCpuVsRaw),
              int(x.rawFetchUs),
              int(x.openapiFetchUs),
              int(x.oursUs),
              times(x.openapiFetchVsRaw),
              times(x.oursVsRaw),
            ];
          }),
        ),
      ].join("\n"),
    ),
    section(
      "Client bundle (esbuild, minified, gzip -9)",
      r.clientSize,
      (z) =>
        `With openapi-fetch: ${kib(z.minifiedBytes)} minified, **${kib(z.gzipBytes)} gzipped**; the client alone (openapi-fetch shared): ${kib(z.ownGzipBytes)} gzipped.`,
    ),
    section("Toolchain", r.toolchain, (figures) =>
      table(
        ["step", "time (ms)", "note"],
        figures.map((f) => [
          f.label,
          f.error ? "failed" : int(f.ms),
          (f.error ?? f.detail ?? "").split("\n")[0] as string,
        ]),
      ),
    ),
    section(
      "pnpm dev: spec edit to restarted server",
      r.dev,
      (d) =>
        `Median ${int(d.specEditToRestartMs)} ms over ${d.runs.length} edits (${d.runs.map(int).join(", ")} ms). ${d.note}`,
    ),
    section("Mock, both modes as `pnpm mock` launches them, beside the server", r.mock, (m) =>
      mockTable(m, r.server.ok ? r.server.value.find((v) => v.id === "ours-sqlite") : undefined),
    ),
  ];
  return `${parts.join("\n")}\n`;
}
