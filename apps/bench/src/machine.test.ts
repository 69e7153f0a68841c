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
    try {
      await new Promise((resolve) => spinner.once("spawn", resolve));
      const cores = cpus().length;
      const start = { all: readWork(), measured: readWork([spinner.pid]) };
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const end = { all: readWork(), measured: readWork([spinner.pid]) };
      const wallTicks = (end.all.machine.total - start.all.machine.total) / cores;
      const spinnerTicks =
        (end.all.processes.get(spinner.pid as number) ?? 0) -
        (start.all.processes.get(spinner.pid as number) ?? 0);
      expect(spinnerTicks).toBeGreaterThan(0);
      const all = otherWork(start.all, end.all, cores).otherCores * wallTicks;
      const measured = otherWork(start.measured, end.measured, cores).otherCores * wallTicks;
      // Anything else running only adds to the sum; each read rounds to a tick.
      expect(all).toBeGreaterThanOrEqual(spinnerTicks - 0.01);
      expect(measured).toBeLessThanOrEqual(all - spinnerTicks + 2);
    } finally {
      spinner.kill("SIGKILL");
    }
  });
});
