/** The machine a run happened on, so every published figure says where it came from. */
import { spawnSync } from "node:child_process";
import { cpus, freemem, loadavg, release, totalmem } from "node:os";

/** Hardware, software and load at the time of a run. */
export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  freeMemoryGb: number;
  os: string;
  node: string;
  wrk: string | null;
  commit: string | null;
  /** 1, 5 and 15 minute load averages: other work on the machine skews every figure. */
  loadAtStart: number[];
}

// First line of stdout whatever the exit code (`wrk --version` exits 1); null when absent.
function commandOutput(command: string, args: string[]): string | null {
  const run = spawnSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  if (run.error) return null;
  return run.stdout.split("\n")[0]?.trim() || null;
}

/** Describes this machine now. */
export function describeMachine(): MachineInfo {
  const gb = (bytes: number) => Math.round((bytes / 2 ** 30) * 10) / 10;
  return {
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    cores: cpus().length,
    memoryGb: gb(totalmem()),
    freeMemoryGb: gb(freemem()),
    os: `${process.platform} ${release()}`,
    node: process.version,
    wrk: commandOutput("wrk", ["--version"])?.split(" [")[0] ?? null,
    commit: commandOutput("git", ["rev-parse", "--short", "HEAD"]),
    loadAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

/** Current 1-minute load average, rounded. */
export function currentLoad(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

/** How steady the machine's speed was: the same fixed work timed in short samples. */
export interface Steadiness {
  /** Samples taken (each the same work). */
  samples: number;
  /** CPU ms of one sample: the median. */
  medianMs: number;
  /** The 90th percentile sample's CPU time over the 10th's: 1.00 on a steady machine. */
  spread: number;
}

/** The spread above which the machine does not count as quiet (README: how it measures). */
export const STEADY_SPREAD = 1.2;

/**
 * Times the same work (what a request does most: building, serialising and parsing a page of
 * pets) in samples of about a tenth of a second for `seconds`, by this process's own CPU time,
 * so time spent waiting for a core does not count, only how fast the core ran the work. On a
 * machine shared with other machines' work (a cloud VM), the same work's CPU time moves by tens
 * of percent from one second to the next, which load average, counting only this machine's
 * processes, never shows.
 */
export function probeSteadiness(seconds: number): Steadiness {
  const pets = Array.from({ length: 100 }, (_, id) => ({
    id,
    name: `pet ${id}`,
    category: { id: 1, name: "dogs" },
    status: "available",
    tags: [{ id, name: "tag" }],
  }));
  const work = () => {
    let size = 0;
    for (let i = 0; i < 100; i++) size += JSON.stringify(JSON.parse(JSON.stringify(pets))).length;
    return size;
  };
  work();
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const cpu = process.cpuUsage();
    work();
    const used = process.cpuUsage(cpu);
    times.push((used.user + used.system) / 1000);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    samples: times.length,
    medianMs: Math.round(at(0.5) * 100) / 100,
    spread: Math.round((at(0.9) / at(0.1)) * 100) / 100,
  };
}
