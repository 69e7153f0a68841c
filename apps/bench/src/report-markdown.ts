/** Renders a run as the Markdown of bench/results/latest.md. */
import { cpuRatioInterval, launchRatios } from "./pairs.js";
import type { BenchResults, Section } from "./results.js";
import { SCENARIOS } from "./server-bench.js";
import { ratio } from "./stats.js";

const int = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString("en-US") : "n/a");
const dec = (v: number, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");
const times = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : "n/a");
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const CLIENTS = {
  rawFetch: "raw fetch",
  openapiFetch: "openapi-fetch",
  ours: "@animal-store/client",
};
const errors = (n: number) => (n === 0 ? "0" : `**${n}**`);

/** A Markdown table; a pipe inside a cell (an error message) is escaped. */
export function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

function section<T>(title: string, s: Section<T>, render: (value: T) => string): string {
  return `### ${title}\n\n${s.ok ? render(s.value) : `Not measured: ${s.reason}`}\n`;
}

function machineLine(r: BenchResults): string {
  const m = r.machine;
  const { start, end } = r.steadiness;
  return `${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB RAM, ${m.os}, Node ${m.node}, ${m.wrk ?? "no wrk"}; load average ${m.loadAtStart.join(" / ")} at start, ${r.loadAtEnd} at end; steadiness ${start.spread}x at start, ${end.spread}x at end (the same work's CPU time, 90th percentile over 10th, in samples of about 0.1 s: 1.00 is steady); ${r.startedAt.slice(0, 16).replace("T", " ")} UTC, commit ${m.commit ?? "?"}.`;
}

export function renderMarkdown(r: BenchResults): string {
  const s = r.settings;
  const ours = r.server.ok ? r.server.value.find((v) => v.id === "ours-sqlite") : undefined;
  const label = (id: string) =>
    (r.server.ok ? r.server.value.find((v) => v.id === id)?.label : undefined) ?? id;
  const parts = [
    "# Benchmark results (`pnpm bench`)",
    "",
    `Machine: ${machineLine(r)}`,
    `Run: ${r.durationSeconds.toFixed(0)} s. Server figures: wrk, ${s.threads} thread, ${s.connections} connections, ${s.rounds} interleaved rounds of ${s.seconds} s, each measured run right after ${s.warmupSeconds} s of the same load on the same variant, not counted; req/s and latency are medians of rounds, the table's ratios the median of per-round ratios. The targets' ratios come from the pairs, measured run against run (below). How to read it: apps/bench/README.md.`,
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
      const has = (id: string) => variants.some((v) => v.id === id);
      // CPU per request first: the figure other work on a shared machine disturbs least.
      const columns: [
        string,
        (f: NonNullable<(typeof variants)[0]["scenarios"]["list20"]>) => string,
        boolean,
      ][] = [
        ["CPU µs/req", (f) => int(f.cpuUsPerRequest), true],
        ["req/s", (f) => int(f.reqPerSec), true],
        ["p50 ms", (f) => dec(f.p50Ms), true],
        ["p99 ms", (f) => dec(f.p99Ms), true],
        ["CPU vs node:http", (f) => times(f.cpuVsRaw), true],
        ["CPU vs Fastify", (f) => times(f.cpuVsFastify), has("fastify-glue")],
        ["req/s vs Express", (f) => times(f.vsExpress), true],
        ["req/s vs node:http", (f) => times(f.vsRaw), true],
        ["req/s vs Fastify", (f) => times(f.vsFastify), has("fastify-glue")],
        ["req/s vs before", (f) => times(f.vsBefore), has("ours-before")],
        ["CPU/req vs metrics off", (f) => times(f.cpuVsNoMetrics), has("ours-no-metrics")],
        ["errors", (f) => errors(f.errors), true],
      ];
      const shown = columns.filter(([, , on]) => on);
      return [
        table(
          ["variant", "scenario", ...shown.map(([head]) => head)],
          variants.flatMap((v) =>
            Object.entries(v.scenarios).map(([id, f]) => [
              v.label,
              id,
              ...shown.map(([, cell]) => cell(f)),
            ]),
          ),
        ),
        "",
        table(
          ["variant", "start to ready (ms)", "first request (ms)", "RSS after run (MB)"],
          variants.map((v) => [
            v.label,
            int(v.startMs),
            dec(v.firstRequestMs, 1),
            int(v.rssAfterMb),
          ]),
        ),
      ].join("\n");
    }),
    section("Pairs, run against run (the targets' ratios)", r.pairs, (pairs) =>
      [
        `Each pair after the rounds, in ${s.pairLaunches} launches of its own (in each, the pair's two variants alone started, warmed up ${s.warmupSeconds} s on each scenario, measured, stopped; the launches go round the pairs): ${s.pairRunsPerLaunch} runs of ${s.pairSeconds} s of each side per launch, the two sides back to back and their order swapped every run. A ratio is the median of the runs' ratios (subject over baseline); its 95% interval is the bootstrap interval of that median (launches drawn first, then runs within them): how far the median of another run as noisy as this one could land; the range is the lowest and highest run; each launch's ratio is the median of that launch's runs (how far one pair of processes' own luck moved it).`,
        "",
        table(
          "subject|baseline|scenario|CPU µs/req: subject|baseline|CPU ratio|95% interval|runs' range|each launch's ratio|req/s ratio|errors".split(
            "|",
          ),
          pairs.map((p) => [
            label(p.subject),
            label(p.baseline),
            p.scenario,
            int(p.subjectCpuUs),
            int(p.baselineCpuUs),
            times(p.cpuRatio),
            cpuRatioInterval(p.runs).map(times).join(" to "),
            p.cpuRatioRange.map(times).join(" to "),
            launchRatios(p.runs).map(times).join(" / "),
            times(p.reqPerSecRatio),
            errors(p.runs.reduce((n, run) => n + run.subject.errors + run.baseline.errors, 0)),
          ]),
        ),
      ].join("\n"),
    ),
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
            errors(x.errors),
          ]),
        ),
        "",
        table(
          ["comparison", "cost ratio"],
          p.ratios.map((x) => [x.label, times(x.ratio)]),
        ),
      ].join("\n"),
    ),
    section("Client (per call, GET /pets?limit=20, sequential)", r.client, (c) => {
      const names = ["rawFetch", "openapiFetch", "ours"] as const;
      const rows = [
        ["ours (SQLite, as shipped)", c.againstOurs],
        ["raw node:http", c.againstRaw],
      ] as const;
      return [
        `${int(c.calls)} calls per client, the three interleaved call by call; medians of per-call figures, ratios of those medians to raw fetch's. CPU is the bench process's own (the clients; every server is a child process).`,
        "",
        table(
          [
            "server",
            ...["CPU µs", "time µs"].flatMap((what) => names.map((n) => `${what}: ${CLIENTS[n]}`)),
            "client CPU vs fetch",
            "openapi-fetch vs fetch",
            "client vs fetch",
          ],
          rows.map(([name, t]) => [
            name,
            ...(["cpuUs", "us"] as const).flatMap((field) => names.map((n) => int(t[n][field]))),
            times(ratio(t.ours.cpuUs, t.rawFetch.cpuUs)),
            times(ratio(t.openapiFetch.us, t.rawFetch.us)),
            times(ratio(t.ours.us, t.rawFetch.us)),
          ]),
        ),
      ].join("\n");
    }),
    section(
      "Client bundle (esbuild, minified, gzip -9)",
      r.clientSize,
      (z) =>
        `With openapi-fetch: ${kib(z.minifiedBytes)} minified, **${kib(z.gzipBytes)} gzipped**; the client alone (openapi-fetch shared): ${kib(z.ownGzipBytes)} gzipped.`,
    ),
    section(
      "pnpm dev: spec edit to restarted server",
      r.dev,
      (d) =>
        `Median ${int(d.specEditToRestartMs)} ms over ${d.runs.length} edits (${d.runs.map(int).join(", ")} ms). ${d.note}`,
    ),
    section("Mock, both modes as `pnpm mock` launches them, beside the server", r.mock, (m) => {
      const scenarios = m.modes[0]?.scenarios ?? [];
      const cell = (f: { reqPerSec: number; p99Ms: number } | undefined) =>
        f ? `${int(f.reqPerSec)} (${dec(f.p99Ms)})` : "n/a";
      const rows = m.modes.map((mode) => [
        mode.label,
        int(mode.startMs),
        ...scenarios.map((sc) => cell(mode.scenarios.find((x) => x.id === sc.id))),
      ]);
      if (ours) {
        const server = "server (a), as shipped (`NODE_ENV=production`)";
        rows.push([
          server,
          int(ours.startMs),
          ...scenarios.map((sc) => cell(ours.scenarios[sc.id])),
        ]);
      }
      const head = [
        "",
        "start to ready (ms)",
        ...scenarios.map((sc) => `${SCENARIOS.find((x) => x.id === sc.id)?.label}: req/s (p99 ms)`),
      ];
      return table(head, rows);
    }),
  ];
  return `${parts.join("\n")}\n`;
}
