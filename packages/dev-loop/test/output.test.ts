// Service output on the loop's terminal: readable lines in development, JSON kept in production.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { jsonLogs, prettyLine, relay } from "../src/output.mjs";

const line = JSON.stringify({
  level: 30,
  time: Date.UTC(2026, 0, 2, 3, 4, 5, 6),
  pid: 1,
  hostname: "h",
  service: "animal-store",
  url: "http://127.0.0.1:8080",
  engine: "sqlite",
  msg: "listening",
});

/** What `relay` prints for `text` written to a stream. */
async function relayed(text: string, json: boolean): Promise<string[]> {
  const stream = new PassThrough();
  const printed: string[] = [];
  relay(stream, "server", (out) => printed.push(out), { json });
  stream.end(text);
  await new Promise((resolve) => stream.once("end", resolve));
  return printed;
}

describe("service output", () => {
  it("a pino line reads as time, level, message and its own fields", () => {
    expect(prettyLine(line)).toBe(
      "03:04:05.006 INFO  listening url=http://127.0.0.1:8080 engine=sqlite",
    );
    expect(prettyLine("Created a development API key")).toBe("Created a development API key");
    expect(prettyLine("{not json")).toBe("{not json");
  });

  it("is relayed readable in development, untouched in production", async () => {
    expect(await relayed(`${line}\nplain\n`, false)).toEqual([
      "[server] 03:04:05.006 INFO  listening url=http://127.0.0.1:8080 engine=sqlite",
      "[server] plain",
    ]);
    expect(await relayed(`${line}\n`, true)).toEqual([`[server] ${line}`]);
    expect(jsonLogs({ NODE_ENV: "production" })).toBe(true);
    expect(jsonLogs({ NODE_ENV: "development" })).toBe(false);
    expect(jsonLogs({ DEV_LOOP_JSON_LOGS: "1" })).toBe(true);
  });
});
