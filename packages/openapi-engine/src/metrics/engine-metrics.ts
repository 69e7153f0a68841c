/**
 * What the engine counts while it serves (observe.ts), by the contract's labels; the registry
 * (registry.ts, prom-client) reads it when /metrics is scraped. No prom-client here: it is
 * loaded only when metrics are on.
 */
import type { Contract } from "../contract/contract.js";
import { EventTally, RequestTally } from "./observe.js";

/** What the engine counts while it serves; read by the registry at scrape time. */
export class EngineMetrics {
  readonly requests: RequestTally;
  /** 429s by `${plan}\n${code}` (rate_limited, api_key_banned). */
  readonly refusals = new EventTally();
  /** Commands the shared rate-limit store failed (the limiter then counts per instance). */
  rateLimitStoreErrors = 0;
  /** Requests answered 503 because the database did not answer. */
  databaseErrors = 0;
  private readonly plans: ReadonlySet<string>;
  private readonly anonymousPlan: string;

  constructor(contract: Contract) {
    this.requests = new RequestTally(contract.operations.map((op) => op.operationId));
    this.plans = new Set(contract.rateLimit.planNames);
    this.anonymousPlan = contract.rateLimit.anonymousPlan;
  }

  /** A 429 of a caller on `plan` (a plan the contract lacks is counted as the anonymous plan, as its limits are). */
  refused(plan: string | undefined, code: string): void {
    const known = plan !== undefined && this.plans.has(plan) ? plan : this.anonymousPlan;
    this.refusals.add(`${known}\n${code}`);
  }
}
