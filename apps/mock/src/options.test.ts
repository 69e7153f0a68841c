import { describe, expect, it } from "vitest";
import { parseMockCommand } from "./options.mjs";

describe("parseMockCommand", () => {
  it("defaults to the spec's examples on 127.0.0.1:4010, logging warnings", () => {
    expect(parseMockCommand([], {})).toEqual({
      kind: "run",
      options: {
        host: "127.0.0.1",
        port: 4010,
        stateful: false,
        dynamic: false,
        logLevel: "warn",
      },
    });
  });

  it("reads MOCK_* variables", () => {
    const env = {
      MOCK_HOST: "0.0.0.0",
      MOCK_PORT: "0",
      MOCK_DYNAMIC: "1",
      MOCK_SEED: "s",
      MOCK_LOG_LEVEL: "info",
      MOCK_SPEC: "/tmp/spec.json",
    };
    expect(parseMockCommand([], env)).toEqual({
      kind: "run",
      options: {
        host: "0.0.0.0",
        port: 0,
        stateful: false,
        dynamic: true,
        seed: "s",
        logLevel: "info",
        specPath: "/tmp/spec.json",
      },
    });
  });

  it("lets flags win over variables, and ignores pnpm's `--`", () => {
    const parsed = parseMockCommand(["--", "--dynamic", "--port=5000", "--host", "::1"], {
      MOCK_PORT: "6000",
    });
    expect(parsed).toMatchObject({
      kind: "run",
      options: { port: 5000, host: "::1", dynamic: true },
    });
  });

  it("--stateful (or MOCK_STATEFUL) takes the plan, own limits and a pretend clock", () => {
    const parsed = parseMockCommand(
      ["--stateful", "--plan", "pro", "--per-minute", "5", "--now", "2031-01-01"],
      { MOCK_PER_DAY: "50", MOCK_PORT: "0" },
    );
    expect(parsed).toEqual({
      kind: "run",
      options: {
        host: "127.0.0.1",
        port: 0,
        logLevel: "warn",
        stateful: true,
        dynamic: false,
        plan: "pro",
        perMinute: 5,
        perDay: 50,
        now: Date.UTC(2031, 0, 1),
      },
    });
    expect(
      parseMockCommand([], { MOCK_STATEFUL: "1", MOCK_NOW: "2031-01-01T12:00:00Z" }),
    ).toMatchObject({
      kind: "run",
      options: { stateful: true, now: Date.UTC(2031, 0, 1, 12) },
    });
  });

  it.each([
    [["--stateful", "--dynamic"], "--dynamic applies to the Prism mode"],
    [["--stateful", "--seed", "s"], "--seed applies to the Prism mode"],
    [["--plan", "pro"], "--plan applies to --stateful only"],
    [["--now", "2031-01-01"], "--now applies to --stateful only"],
    [["--stateful", "--now", "next tuesday"], 'not "next tuesday"'],
    [
      ["--stateful", "--per-minute", "0"],
      '--per-minute must be a whole number of at least 1, not "0"',
    ],
    [
      ["--stateful", "--per-day", "1.5"],
      '--per-day must be a whole number of at least 1, not "1.5"',
    ],
  ])("refuses %j, saying why", (argv, message) => {
    const parsed = parseMockCommand(argv, {});
    expect(parsed.kind).toBe("error");
    expect(parsed.kind === "error" && parsed.message).toContain(message);
  });

  it("answers --help", () => {
    expect(parseMockCommand(["--help"], {})).toEqual({ kind: "help" });
  });

  it.each([
    [["--port", "80a"], 'not "80a"'],
    [["--port", "70000"], 'not "70000"'],
    [["--log-level", "loud"], 'Unknown log level "loud"'],
    [["--frobnicate"], "--frobnicate"],
    [["--seed"], "--seed"],
  ])("rejects %j with a clear message", (argv, message) => {
    const parsed = parseMockCommand(argv, {});
    expect(parsed.kind).toBe("error");
    expect(parsed.kind === "error" && parsed.message).toContain(message);
  });

  it("rejects a bad MOCK_PORT", () => {
    expect(parseMockCommand([], { MOCK_PORT: "-1" })).toMatchObject({ kind: "error" });
  });
});
