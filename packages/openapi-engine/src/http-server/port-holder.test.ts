import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { portHolders, portTakenMessage } from "./port-holder.js";

/** A child process listening on a free port; resolves with it and the port. */
async function childListening() {
  const child = spawn(
    process.execPath,
    [
      "-e",
      `const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>console.log(s.address().port));`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [chunk] = await once(child.stdout, "data");
  return { child, port: Number(String(chunk).trim()) };
}

describe("portHolders", () => {
  it("names the other process listening on the port, with its command line", async () => {
    const { child, port } = await childListening();
    try {
      const holders = portHolders(port);
      expect(holders).toEqual([{ pid: child.pid, command: expect.stringContaining("-e") }]);
      expect(portTakenMessage(port, "127.0.0.1")).toContain(
        `port ${port} on 127.0.0.1 is taken (by pid ${child.pid}: `,
      );
    } finally {
      child.kill();
      await once(child, "exit");
    }
  });

  it("never names this process, and finds none once the holder is gone", async () => {
    const own = createServer();
    own.listen(0, "127.0.0.1");
    await once(own, "listening");
    const port = (own.address() as { port: number }).port;
    try {
      expect(portHolders(port)).toEqual([]);
    } finally {
      own.close();
    }
    expect(portHolders(port)).toEqual([]);
  });
});
