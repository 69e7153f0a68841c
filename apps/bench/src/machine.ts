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
