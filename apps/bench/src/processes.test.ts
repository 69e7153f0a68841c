/** What a stopped run leaves behind: its registered clean-ups run once, even when one fails. */
import { describe, expect, it } from "vitest";
import { cleanUpWhenStopped, spawnTracked, stopAll } from "./processes.js";

describe("stopAll", () => {
  it("stops tracked children, then runs each registered clean-up once, even past a failing one", async () => {
    const ran: string[] = [];
    const child = spawnTracked(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
      stdio: "ignore",
    });
    cleanUpWhenStopped(async () => {
      ran.push(
        `schema (child ${child.exitCode === null && child.signalCode === null ? "running" : "stopped"})`,
      );
    });
    cleanUpWhenStopped(async () => {
      throw new Error("redis is gone");
    });
    const unregister = cleanUpWhenStopped(async () => {
      ran.push("unregistered");
    });
    cleanUpWhenStopped(async () => {
      ran.push("scratch dir");
    });
    unregister();
    await stopAll();
    await stopAll();
    expect(ran).toEqual(["schema (child stopped)", "scratch dir"]);
  });
});
