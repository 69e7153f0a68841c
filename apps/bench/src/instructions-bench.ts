/**
 * Instructions per request under callgrind: the steady figure beside CPU time. On a cloud VM the
 * same work's CPU time moves by tens of percent from one second to the next (machine.ts), while
 * the number of instructions a process runs for a request does not depend on how fast the core
 * ran them: two counts of the same build agree within a few percent. It counts user space only
 * (the server's JavaScript, V8, Node, libuv and SQLite), not the kernel's socket work, so it
 * complements the CPU time of the pairs rather than replacing it.
 *
 * Each variant runs under `valgrind --tool=callgrind` with instrumentation off, is seeded and warmed
 * up on every scenario (V8 has optimised what it will), then counts `counted` requests of each
 * scenario with instrumentation on, sent by this process on 8 keep-alive connections, and dumps
 * the counts per scenario (callgrind zeroes them at every dump).
 */
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { Agent, request as httpRequest } from "node:http";
import { join } from "node:path";
import { promisify } from "node:util";
import { basePath } from "./base-path.js";
import { type Scenario, seed, type VariantSpec } from "./server-bench.js";
import { ratio } from "./stats.js";
import { startVariant, stopVariant } from "./variant-process.js";

const run = promisify(execFile);

/** Instructions per request of one variant, per scenario. */
export interface InstructionFigures {
  id: VariantSpec["id"];
  label: string;
  perRequest: Partial<Record<Scenario["id"], number>>;
}

/** What the section measured. */
export interface InstructionsResult {
  /** Requests counted per scenario, after `warmup` uncounted ones. */
  counted: number;
  warmup: number;
  variants: InstructionFigures[];
  /** Per scenario, the first variant's count over the second's. */
  ratios: Partial<Record<Scenario["id"], number>>;
}

export interface InstructionsOptions {
  specs: readonly VariantSpec[];
  scenarios: readonly Scenario[];
  counted: number;
  warmup: number;
  scratchDir: string;
  log(line: string): void;
}

/** Why the section cannot run here, or null. */
export async function callgrindMissing(): Promise<string | null> {
  try {
    await run("valgrind", ["--version"]);
    await run("callgrind_control", ["--version"]);
    return null;
  } catch {
    return "valgrind (with callgrind_control) is not installed: sudo apt-get install -y valgrind";
  }
}

/** The `totals:` line of a callgrind output file: the instructions it counted. */
export function callgrindTotal(text: string): number {
  // Only totals: a dump's summary line reads 0 when instrumentation was switched on mid-run.
  const match = /^totals:\s+(\d+)/m.exec(text);
  if (match === null) throw new Error("callgrind output without a totals line");
  return Number(match[1]);
}

/** Dump files (`<base>.1`, `<base>.2`, ...) in the order callgrind wrote them. */
export function dumpFilesInOrder(names: readonly string[], base: string): string[] {
  return names
    .filter((n) => n.startsWith(`${base}.`) && /^\d+$/.test(n.slice(base.length + 1)))
    .sort((a, b) => Number(a.slice(base.length + 1)) - Number(b.slice(base.length + 1)));
}

function send(agent: Agent, url: string, request: ReturnType<Scenario["request"]>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}${request.path}`,
      { method: request.method, headers: request.headers, agent },
      (res) => {
        res.resume();
        res.on("end", () =>
          (res.statusCode ?? 500) >= 300
            ? reject(new Error(`${request.method} ${request.path} answered ${res.statusCode}`))
            : resolve(),
        );
      },
    );
    req.on("error", reject);
    req.end(request.body);
  });
}

async function burst(
  agent: Agent,
  url: string,
  request: ReturnType<Scenario["request"]>,
  n: number,
) {
  let sent = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (sent < n) {
        sent++;
        await send(agent, url, request);
      }
    }),
  );
}

async function countVariant(
  spec: VariantSpec,
  options: InstructionsOptions,
): Promise<InstructionFigures> {
  const base = `callgrind-${spec.id}.out`;
  const outFile = join(options.scratchDir, base);
  const variant = await startVariant(spec.id, spec.env, `${basePath}/pets?limit=20`, [], {
    wrapper: [
      "valgrind",
      "--tool=callgrind",
      "--instr-atstart=no",
      `--callgrind-out-file=${outFile}`,
    ],
    readyTimeoutMs: 180_000,
  });
  // callgrind_control finds the process through a file named after the user and host from the
  // environment: give it the child's (the child's HOST is the server's bind address).
  const controlEnv: Record<string, string> = { PATH: process.env.PATH ?? "" };
  for (const name of ["HOST", "USER", "LOGNAME"]) {
    const value = spec.env[name];
    if (value !== undefined) controlEnv[name] = value;
  }
  const control = (...args: string[]) =>
    run("callgrind_control", [...args, String(variant.child.pid)], { env: controlEnv });
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  try {
    await seed(variant, 120);
    // Every scenario warmed up before any is counted: V8's optimising compiler runs on threads
    // callgrind counts too, and GET limit=20, counted first right after its own 3,000 requests of
    // warm-up, read 443k instructions a request where it reads 396k after every scenario's.
    for (const scenario of options.scenarios) {
      await burst(agent, variant.url, scenario.request(variant.key), options.warmup);
    }
    for (const scenario of options.scenarios) {
      const request = scenario.request(variant.key);
      await control("-i", "on");
      await burst(agent, variant.url, request, options.counted);
      await control("-i", "off");
      await control("-d");
    }
  } finally {
    agent.destroy();
    await stopVariant(variant);
  }
  const dumps = dumpFilesInOrder(await readdir(options.scratchDir), base);
  if (dumps.length !== options.scenarios.length) {
    throw new Error(
      `${spec.id}: ${dumps.length} callgrind dumps for ${options.scenarios.length} scenarios`,
    );
  }
  const perRequest: InstructionFigures["perRequest"] = {};
  for (const [i, scenario] of options.scenarios.entries()) {
    const total = callgrindTotal(
      await readFile(join(options.scratchDir, dumps[i] as string), "utf8"),
    );
    perRequest[scenario.id] = total / options.counted;
    options.log(
      `  ${spec.id} ${scenario.id}: ${(total / options.counted / 1000).toFixed(0)}k instructions per request`,
    );
  }
  return { id: spec.id, label: spec.label, perRequest };
}

/** Counts each of `specs` (two: the first compared with the second) on every scenario. */
export async function runInstructionsBench(
  options: InstructionsOptions,
): Promise<InstructionsResult> {
  const variants: InstructionFigures[] = [];
  for (const spec of options.specs) variants.push(await countVariant(spec, options));
  const [subject, baseline] = variants;
  const ratios: InstructionsResult["ratios"] = {};
  for (const scenario of options.scenarios) {
    const a = subject?.perRequest[scenario.id];
    const b = baseline?.perRequest[scenario.id];
    if (a !== undefined && b !== undefined) ratios[scenario.id] = ratio(a, b);
  }
  return { counted: options.counted, warmup: options.warmup, variants, ratios };
}
