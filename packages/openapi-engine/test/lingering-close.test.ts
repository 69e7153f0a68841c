// Lingering close (issue 52, RFC 9112 section 9.6): a body far over the limit, declared with its
// Content-Length and sent whole, gets its 413 read by the client: Node's fetch and Python's urllib
// (which sends the whole body before it reads a byte of the answer), 20 times out of 20 each. And
// the bounds hold: a client that keeps the connection open and sends nothing is cut once it has
// been idle for the idle bound; one that keeps sending is cut at the total bound.
// Planted fault: the answered connection destroyed as soon as the answer is written (no linger).
import { execFile } from "node:child_process";
import { connect, type Socket } from "node:net";
import { loadBundledSpec } from "@animal-store/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LINGER } from "../src/config.js";
import { type ScratchServer, startScratchServer } from "../src/testing/index.js";
import { type KeyOnlyStore, listApplication, listOperations } from "./support/list-application.js";

const spec = loadBundledSpec();
const list = listOperations(spec)[0];
if (!list) throw new Error("the contract has no parameterless GET answering a list");
// Small bounds, so the half-open cases are quick; the byte bound above the body sent.
const LINGER = { LINGER_IDLE_MS: "400", LINGER_MAX_MS: "1500" };
const BODY_BYTES = 10_000_000;

let app: ScratchServer<KeyOnlyStore>;
beforeAll(async () => {
  app = await startScratchServer(listApplication(spec), { name: "linger", env: LINGER });
});
afterAll(() => app?.close());

const target = () => `${app.apiUrl}${list.path}`;

describe("an early 413 reaches clients still sending the body", () => {
  it("Node's fetch with a 10 MB body reads the 413, 20 times out of 20", async () => {
    const body = Buffer.alloc(BODY_BYTES, 0x61);
    let read = 0;
    for (let i = 0; i < 20; i++) {
      try {
        const res = await fetch(target(), {
          method: "POST",
          headers: { authorization: `Bearer ${app.key}`, "content-type": "application/json" },
          body,
        });
        const answer = (await res.json()) as { code: string };
        if (res.status === 413 && answer.code === "payload_too_large") read++;
      } catch {
        // EPIPE / ECONNRESET: the answer was lost.
      }
    }
    expect(read).toBe(20);
  }, 120_000);

  it("Python's urllib with a 10 MB body reads the 413, 20 times out of 20", async () => {
    const script = `
import sys, urllib.request, urllib.error
url, key = sys.argv[1], sys.argv[2]
body = b"a" * ${BODY_BYTES}
read = 0
for _ in range(20):
    req = urllib.request.Request(url, data=body, method="POST",
        headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"})
    try:
        urllib.request.urlopen(req, timeout=30)
    except urllib.error.HTTPError as e:
        if e.code == 413 and b"payload_too_large" in e.read():
            read += 1
    except Exception as e:
        print("lost:", repr(e), file=sys.stderr)
print(read)
`;
    // Asynchronously: the server runs in this process.
    const result = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      execFile(
        "python3",
        ["-c", script, target(), app.key],
        { timeout: 120_000 },
        (_, stdout, stderr) => resolve({ stdout, stderr }),
      );
    });
    expect(result.stdout.trim(), result.stderr).toBe("20");
  }, 150_000);
});

/**
 * Sends a declared-over-limit request, reads the 413 and keeps its side open. Keeping sending, it
 * learns of the cut from the reset its next write draws; sending nothing, it probes once with one
 * byte after `probeAfterMs` (a lingering server reads it; a closed one resets). Resolves with the
 * answer and when the connection was found cut, counted from the answer.
 */
function halfOpen(keepSending: boolean, probeAfterMs = 0) {
  const { hostname, port, pathname } = new URL(target());
  return new Promise<{ answer: string; cutAfterMs: number }>((resolve, reject) => {
    const socket: Socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    let answer = "";
    let answeredAt = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on("data", (chunk) => {
      answer += String(chunk);
      if (answeredAt) return;
      answeredAt = Date.now();
      if (!keepSending) {
        setTimeout(() => {
          socket.write("a");
          // Written twice: the first draws the reset, the second meets it.
          setTimeout(() => socket.writable && socket.write("a"), 100);
        }, probeAfterMs);
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ answer, cutAfterMs: Date.now() - answeredAt });
    });
    socket.once("connect", () => {
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${BODY_BYTES}\r\n\r\n`,
      );
      if (keepSending) timer = setInterval(() => socket.writable && socket.write("a"), 50);
    });
    setTimeout(() => {
      socket.destroy();
      reject(new Error("never cut"));
    }, 20_000).unref();
  });
}

describe("half-open clients are still cut within the bounds", () => {
  it("one that sends nothing more: within the idle bound", async () => {
    const idle = Number(LINGER.LINGER_IDLE_MS);
    const { answer, cutAfterMs } = await halfOpen(false, idle + 300);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    // Found cut by the first probe after the idle bound (a lingering socket would swallow it).
    expect(cutAfterMs).toBeLessThan(idle + 1000);
  });

  it("one that keeps sending: within the total bound", async () => {
    const { answer, cutAfterMs } = await halfOpen(true);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(cutAfterMs).toBeGreaterThanOrEqual(Number(LINGER.LINGER_IDLE_MS));
    expect(cutAfterMs).toBeLessThan(Number(LINGER.LINGER_MAX_MS) + 500);
  });

  it("the defaults let a 10 MB body be read and discarded", () => {
    expect(DEFAULT_LINGER.maxBytes).toBeGreaterThan(BODY_BYTES);
  });
});
