/**
 * The rate-limit numbers of the contract (plan table, ban rule), read from the bundled spec's
 * `info` extensions so the suites never restate them.
 */
import { loadSpec } from "./spec.js";

/** Requests per minute and per day of a plan with fixed limits. */
export interface PlanNumbers {
  perMinute: number;
  perDay: number;
}

/** The plan table and ban rule as the contract states them. */
export function contractLimits() {
  const info = loadSpec().info as {
    "x-rate-limit-plans": Record<string, { perMinute: unknown; perDay: unknown }>;
    "x-rate-limit-ban": { rejectedRequestsBeforeBan: number; banSeconds: number };
  };
  const plan = (name: string): PlanNumbers => {
    const entry = info["x-rate-limit-plans"][name];
    if (!entry || typeof entry.perMinute !== "number" || typeof entry.perDay !== "number") {
      throw new Error(`plan ${name} has no fixed limits in the spec`);
    }
    return { perMinute: entry.perMinute, perDay: entry.perDay };
  };
  return { free: plan("free"), pro: plan("pro"), ban: info["x-rate-limit-ban"] };
}

/**
 * Rate-limit windows are UTC minutes: a test that must stay inside one minute waits, when fewer
 * than `marginMs` remain, for the next one to begin.
 */
export async function awayFromMinuteEdge(marginMs: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 100));
}
