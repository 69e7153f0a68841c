// Loaded into a server child with `--import` by one-get-road.test.ts: V8's precise coverage (call
// counts per function) from before the first module loads, read over the IPC channel. "reset"
// zeroes the counts (taking the coverage resets them); "take" answers the URL of every script
// with a function called since.
import { Session } from "node:inspector/promises";

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

process.on("message", async (message) => {
  const { result } = await session.post("Profiler.takePreciseCoverage");
  if (message === "reset") {
    process.send?.({ reset: true });
    return;
  }
  const called = result
    .filter((script) => script.functions.some((fn) => fn.ranges.some((range) => range.count > 0)))
    .map((script) => script.url);
  process.send?.({ called });
});
// The channel must not keep the server alive once it has closed.
process.channel?.unref();
