/** The machine a run happened on, and how steady its speed was: whose figure a p99 is. */
import { spawnSync } from "node:child_process";
import { cpus, loadavg, release, totalmem } from "node:os";

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  os: string;
  node: string;
  wrk: string | null;
  commit: string | null;
  loadAtStart: number[];
}

// First line of stdout whatever the exit code (`wrk --version` exits 1); null when absent.
function firstLine(command: string, args: string[]): string | null {
  const run = spawnSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  return run.error ? null : run.stdout.split("\n")[0]?.trim() || null;
}

const twoPlaces = (v: number) => Math.round(v * 100) / 100;
export const currentLoad = () => twoPlaces(loadavg()[0] ?? 0);

export function describeMachine(): MachineInfo {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    cores: cpus().length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${process.platform} ${release()}`,
    node: process.version,
    wrk: firstLine("wrk", ["--version"])?.split(" [")[0] ?? null,
    commit: firstLine("git", ["rev-parse", "--short", "HEAD"]),
    loadAtStart: loadavg().map(twoPlaces),
  };
}

/** The same fixed work timed in short samples: `spread` is the 90th percentile over the 10th. */
export interface Steadiness {
  samples: number;
  medianMs: number;
  spread: number;
}

/** Above this spread the machine does not count as quiet. */
export const STEADY_SPREAD = 1.2;

/**
 * Times what a request does most (building, serialising and parsing a page of pets) in samples of
 * about 0.1 s for `seconds`, by this process's own CPU time, so waiting for a core does not
 * count, only how fast the core ran. On a VM whose host runs other machines' work, that speed
 * moves by tens of percent from one second to the next, which no load average shows.
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
    for (let i = 0; i < 100; i++) JSON.stringify(JSON.parse(JSON.stringify(pets)));
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
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return {
    samples: times.length,
    medianMs: twoPlaces(at(0.5)),
    spread: twoPlaces(at(0.9) / at(0.1)),
  };
}
