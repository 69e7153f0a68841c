import { describe, expect, it } from "vitest";
import { parseWrkOutput, wrkScript } from "./wrk.js";

describe("wrkScript", () => {
  it("sets method, path, body and headers, and prints one JSON line when done", () => {
    const script = wrkScript({
      method: "POST",
      path: "/api/pets",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: '{"name":"Rex"}',
    });
    expect(script).toContain('wrk.method = "POST"');
    expect(script).toContain('wrk.path = "/api/pets"');
    expect(script).toContain('wrk.body = "{\\"name\\":\\"Rex\\"}"');
    expect(script).toContain('wrk.headers["authorization"] = "Bearer k"');
    expect(script).toContain("latency:percentile(99)");
  });

  it("leaves the body out of a GET", () => {
    expect(wrkScript({ method: "GET", path: "/", headers: {} })).not.toContain("wrk.body");
  });

  it("refuses text Lua could not carry safely", () => {
    expect(() => wrkScript({ method: "GET", path: "/\n", headers: {} })).toThrow("non-printable");
  });
});

describe("parseWrkOutput", () => {
  const line =
    'BENCH_JSON {"requests":40000,"duration_us":4000000,"errors":3,"p50_us":1500,"p99_us":12000,"max_us":30000}';

  it("turns wrk's microseconds into req/s and milliseconds", () => {
    const result = parseWrkOutput(`Running 4s test @ http://x\n  1 threads\n${line}\n`);
    expect(result).toEqual({
      requests: 40000,
      durationMs: 4000,
      reqPerSec: 10000,
      p50Ms: 1.5,
      p99Ms: 12,
      maxMs: 30,
      errors: 3,
    });
  });

  it("fails plainly when wrk printed no result line", () => {
    expect(() => parseWrkOutput("unable to connect to 127.0.0.1:1")).toThrow(
      "wrk printed no result",
    );
  });

  it("fails when a field is missing", () => {
    expect(() => parseWrkOutput('BENCH_JSON {"requests":1}')).toThrow("lacks duration_us");
  });
});
