/** How the bench tells other processes' CPU from its own, which decides "machine not quiet". */
import { spawn } from "node:child_process";
import { cpus } from "node:os";
import { describe, expect, it } from "vitest";
import { machineCpu, otherWork, readWork, statTicks, type WorkReading } from "./machine.js";

const reading = (total: number, steal: number, processes: [number, number][]): WorkReading => ({
  machine: { total, steal },
  processes: new Map(processes),
});

describe("what else the machine did", () => {
  it("reads steal and total ticks from /proc/stat's first line", () => {
    const stat = "cpu  100 5 40 800 10 7 3 20 9 0\ncpu0 50 2 20 400 5 3 1 10 4 0\n";
    // Every field up to steal: guest (9) is inside user already.
    expect(machineCpu(stat)).toEqual({ steal: 20, total: 985 });
    // No /proc/stat (not Linux): no time passes, so other work reads "not measured".
    const none = reading(0, 0, []);
    expect(machineCpu("")).toEqual(none.machine);
    expect(otherWork(none, none, 2)).toEqual({ otherCores: Number.NaN, stealShare: Number.NaN });
  });

  it("adds a process's time to its reaped children's, past a command name holding ') '", () => {
    const stat = "4242 (node (bench) ) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17";
    // utime 11, stime 12, cutime 13, cstime 14.
    expect(statTicks(stat)).toBe(50);
  });

  it("sums other processes' ticks, a new one whole, an ended one left to its parent", () => {
    const before = reading(5000, 10, [
      [1, 100],
      [7, 40],
      [9, 30],
    ]);
    // Process 9 ended (its 35 ticks now in its parent 7's count); process 12 started.
    const after = reading(5400, 30, [
      [1, 110],
      [7, 40 + 35 + 5],
      [12, 10],
    ]);
    // 400 ticks over 2 cores: 200 ticks of wall time. 10 + 40 + 10 = 60 ticks: 0.3 cores.
    expect(otherWork(before, after, 2)).toEqual({ otherCores: 0.3, stealShare: 0.05 });
    expect(otherWork(before, before, 2).otherCores).toBeNaN();
  });

  it("counts a spinning process as other work, and leaves it out when it is the one measured", async () => {
    const spinner = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
    const pid = spinner.pid as number;
    try {
      await new Promise((resolve) => spinner.once("spawn", resolve));
      const cores = cpus().length;
      const start = readWork();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const end = readWork();
      const wallTicks = (end.machine.total - start.machine.total) / cores;
      const spinnerTicks = (end.processes.get(pid) ?? 0) - (start.processes.get(pid) ?? 0);
      expect(spinnerTicks).toBeGreaterThan(0);
      // Anything else running only adds to the sum.
      const all = otherWork(start, end, cores).otherCores * wallTicks;
      expect(all).toBeGreaterThanOrEqual(spinnerTicks - 0.01);
      // Measured, it is not read at all (the bench itself never is), and the same readings
      // without it come to the rest.
      expect(readWork([pid]).processes.has(pid)).toBe(false);
      expect(readWork().processes.has(pid)).toBe(true);
      expect(readWork().processes.has(process.pid)).toBe(false);
      const without = (r: WorkReading): WorkReading => ({
        machine: r.machine,
        processes: new Map([...r.processes].filter(([p]) => p !== pid)),
      });
      const rest = otherWork(without(start), without(end), cores).otherCores * wallTicks;
      expect(rest).toBeCloseTo(all - spinnerTicks, 6);
    } finally {
      spinner.kill("SIGKILL");
    }
  });
});
