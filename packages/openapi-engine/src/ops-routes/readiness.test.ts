import pino from "pino";
import { describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../errors.js";
import { describeCause, maskSecrets, readinessMonitor } from "./readiness.js";

describe("maskSecrets", () => {
  it("masks the password of every URL, nothing else", () => {
    expect(maskSecrets("to postgres://app:p4ss@db:5432/x and redis://:pw@r:6379 as app")).toBe(
      "to postgres://app:***@db:5432/x and redis://:***@r:6379 as app",
    );
    expect(maskSecrets("postgres://app@db/x")).toBe("postgres://app@db/x");
  });
});

describe("describeCause", () => {
  it("follows the cause chain, with codes", () => {
    const driver = Object.assign(new Error("getaddrinfo failed"), { code: "ENOTFOUND" });
    const err = new StoreUnavailableError("the database is not reachable yet", { cause: driver });
    expect(describeCause(err)).toBe(
      "the database is not reachable yet: getaddrinfo failed (ENOTFOUND)",
    );
  });
});

describe("readinessMonitor", () => {
  it("logs a failure once per change of state, and the recovery", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino(
      { level: "info" },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    let down = true;
    const monitor = readinessMonitor(
      {
        database: {
          check: async () => {
            if (down) throw new Error("connect ECONNREFUSED postgres://u:pw@h/db");
          },
        },
      },
      logger,
    );
    expect((await monitor.check()).failed).toEqual(["database"]);
    // The first failure is logged at once, and not again while the database stays down.
    expect(lines.map((l) => l.msg)).toEqual(["database not ready"]);
    await monitor.check();
    await monitor.check();
    expect(lines).toHaveLength(1);
    down = false;
    expect((await monitor.check()).failed).toEqual([]);
    await monitor.check();
    down = true;
    await monitor.check();
    expect(lines.map((l) => l.msg)).toEqual([
      "database not ready",
      "database ready again",
      "database not ready",
    ]);
    expect(lines[0]?.cause).toBe("connect ECONNREFUSED postgres://u:***@h/db");
  });
});
