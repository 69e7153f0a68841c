import { describe, expect, it } from "vitest";
import { banEndSeconds, decide, windowsAt } from "./decision.js";

describe("windowsAt", () => {
  it("aligns the minute and the day to UTC", () => {
    const lastMs = Date.UTC(2026, 2, 31, 23, 59, 59, 999);
    expect(windowsAt(lastMs)).toMatchObject({
      minuteEndMs: Date.UTC(2026, 3, 1),
      dayEndMs: Date.UTC(2026, 3, 1),
    });
    const next = windowsAt(lastMs + 1);
    expect(next.minuteIndex).toBe(windowsAt(lastMs).minuteIndex + 1);
    expect(next.dayIndex).toBe(windowsAt(lastMs).dayIndex + 1);
    expect(next.minuteEndMs).toBe(Date.UTC(2026, 3, 1, 0, 1));
  });
});

describe("decide", () => {
  const limits = { perMinute: 10, perDay: 100 };
  const now = Date.UTC(2026, 0, 1, 8, 30, 0, 1);

  it("rounds Retry-After up, so it never points before the reset", () => {
    const refused = decide(
      { kind: "limited" },
      { minute: 10, day: 50 },
      limits,
      now,
      windowsAt(now),
    );
    expect(refused.reset).toBe(Date.UTC(2026, 0, 1, 8, 31) / 1000);
    expect(refused.retryAfter).toBe(60);
    expect((refused.reset * 1000 - now) / 1000).toBeLessThanOrEqual(refused.retryAfter ?? 0);
  });

  it("never reports a negative remaining when limits shrank below the count", () => {
    expect(
      decide({ kind: "limited" }, { minute: 3, day: 500 }, limits, now, windowsAt(now)),
    ).toMatchObject({
      limit: 100,
      remaining: 0,
    });
  });

  it("starts a ban at the current whole second, so Retry-After equals its length", () => {
    const until = banEndSeconds(now, 600);
    expect(
      decide(
        { kind: "banned", untilSeconds: until },
        { minute: 10, day: 10 },
        limits,
        now,
        windowsAt(now),
      ),
    ).toMatchObject({ reset: until, retryAfter: 600, code: "api_key_banned", remaining: 0 });
  });
});
