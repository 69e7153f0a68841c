/** The machine a run happened on, so every published figure says where it came from. */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
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

/** The whole machine's time so far, in clock ticks of all its cores (/proc/stat, Linux). */
export interface MachineCpu {
  /** Time the hypervisor gave this machine's cores to other machines. */
  steal: number;
  /** Every tick counted, idle included. */
  total: number;
}

/** A /proc file's text, or "" where there is none (not Linux): the figures read "not measured". */
function readProc(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** Reads /proc/stat's first line (guest time is inside user, so it is not added again). */
export function machineCpu(stat = readProc("/proc/stat")): MachineCpu {
  const line = stat.split("\n").find((l) => l.startsWith("cpu ")) ?? "";
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  return { steal: ticks[7] ?? 0, total: ticks.reduce((sum, t) => sum + t, 0) };
}

/**
 * A process's CPU time so far with that of the children it has reaped, in clock ticks: utime,
 * stime, cutime and cstime of /proc/<pid>/stat. A child that ends is counted once, in its parent.
 */
export function statTicks(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
}

/** `statTicks` of every process but `exclude`, kernel threads included, by pid. */
export function processTicks(exclude: ReadonlySet<number>): Map<number, number> {
  const ticks = new Map<number, number>();
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    // No /proc (not Linux): nothing to read, and otherWork says "not measured".
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || exclude.has(pid)) continue;
    try {
      ticks.set(pid, statTicks(readFileSync(`/proc/${pid}/stat`, "utf8")));
    } catch {
      // It ended between the listing and the read: its parent's count has it now.
    }
  }
  return ticks;
}

/** The machine and every other process, at one moment. */
export interface WorkReading {
  machine: MachineCpu;
  processes: Map<number, number>;
}

/**
 * Reads the machine and every process but the bench's own (this process, which holds every wrk
 * it has reaped) and `exclude` (the measured server).
 */
export function readWork(exclude: readonly (number | undefined)[] = []): WorkReading {
  const own = new Set([process.pid, ...exclude.filter((p): p is number => p !== undefined)]);
  return { machine: machineCpu(), processes: processTicks(own) };
}

/** What the rest of the machine did while something of ours ran. */
export interface OtherWork {
  /** Cores' worth of CPU the processes that are not the bench's used, on average. */
  otherCores: number;
  /** Share of the machine's time the hypervisor gave to other machines (0 to 1). */
  stealShare: number;
}

/** Busy-time shares above these do not count as a quiet machine (README: how it measures). */
export const QUIET_OTHER_SHARE = 0.1;
export const QUIET_STEAL_SHARE = 0.05;

/**
 * Other processes' CPU between two readings, summed process by process. Not the machine's busy
 * time less the bench's: kernels that sample time by ticks charge a process for the softirq work
 * done while it runs (loopback traffic, the bench's own) but book it as softirq in /proc/stat,
 * so under load that difference reads below zero and hides someone else's work.
 */
export function otherWork(before: WorkReading, after: WorkReading, cores: number): OtherWork {
  const total = after.machine.total - before.machine.total;
  if (!(total > 0)) return { otherCores: Number.NaN, stealShare: Number.NaN };
  let ticks = 0;
  // A process that started in between counts whole; one that ended is in its parent's count.
  for (const [pid, now] of after.processes) ticks += now - (before.processes.get(pid) ?? 0);
  return {
    otherCores: Math.max(0, ticks) / (total / cores),
    stealShare: (after.machine.steal - before.machine.steal) / total,
  };
}
