/**
 * Counters shared by every instance through Redis. When Redis is unreachable the limiter fails
 * open onto a per-instance in-memory limiter, so the API stays up and every response keeps its
 * headers; check() rejects meanwhile, which /readyz reports. Connect and command times are
 * bounded, so a dead Redis never hangs a request.
 */
import { Redis } from "ioredis";
import type { BanSettings } from "./ban.js";
import { CONSUME_SCRIPT } from "./consume-script.js";
import type { RateLimiter } from "./limiter.js";
import {
  createMemoryRateLimiter,
  decide,
  type Outcome,
  type Windows,
  windowsAt,
} from "./limits.js";

/** Where the limiter reports that it fell back to, or came back from, per-instance counting. */
export interface RateLimitLog {
  warn(message: string): void;
  info(message: string): void;
}

/** Options of the Redis limiter. */
export interface RedisRateLimiterOptions {
  url: string;
  /** Prefix of every key; tests and deployments use their own. */
  keyPrefix: string;
  /** The ban rule (the contract's, with the operator's overrides). */
  ban: BanSettings;
  /** Bounds on connecting and on each command, in ms (defaults 1000 and 500). */
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  log?: RateLimitLog;
  /** Told of every failed command (the metrics' store errors). */
  onStoreError?: () => void;
}

type ConsumeReply = [number, number, number, number];
type ScriptedRedis = Redis & {
  rateLimitConsume(...args: (string | number)[]): Promise<number[]>;
};

const OUTCOMES = ["limited", "allowed"] as const;
/** After a failed command, requests skip Redis this long, so an outage costs one timeout, not one per request. */
const BYPASS_AFTER_FAILURE_MS = 1000;

/** Creates the limiter that keeps its counters in Redis (used when REDIS_URL is set). */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const { ban } = options;
  const connectTimeout = options.connectTimeoutMs ?? 1000;
  const redis = new Redis(options.url, {
    connectTimeout,
    commandTimeout: options.commandTimeoutMs ?? 500,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    // Each request is one script call; the calls of one turn of the event loop leave in one
    // write (one pipeline) instead of a write each.
    enableAutoPipelining: true,
  }) as ScriptedRedis;
  redis.defineCommand("rateLimitConsume", { numberOfKeys: 5, lua: CONSUME_SCRIPT });
  const fallback = createMemoryRateLimiter({ ban });
  let degraded = false;
  let bypassUntil = 0;
  const degrade = (err: unknown) => {
    if (degraded) return;
    degraded = true;
    const reason = err instanceof Error ? err.message : String(err);
    options.log?.warn(`Redis rate-limit store unavailable (${reason}); counting per instance`);
  };
  const recover = () => {
    if (!degraded) return;
    degraded = false;
    options.log?.info("Redis rate-limit store is back; counting across instances");
  };
  redis.on("error", degrade);
  redis.on("ready", () => {
    bypassUntil = 0; // a fresh connection is worth trying at once
    recover();
  });

  const waitReady = () =>
    new Promise<void>((resolve, reject) => {
      if (redis.status === "ready") return resolve();
      const timer = setTimeout(
        () => done(new Error("Redis did not become ready in time")),
        connectTimeout,
      );
      const onReady = () => done();
      function done(err?: Error) {
        clearTimeout(timer);
        redis.off("ready", onReady);
        if (err) reject(err);
        else resolve();
      }
      redis.once("ready", onReady);
    });

  /** The consumes waiting for this turn of the event loop's flush, by group. */
  interface Batch {
    subject: string;
    limits: { perMinute: number; perDay: number };
    now: number;
    windows: Windows;
    eligible: 0 | 1;
    waiters: ((reply: ConsumeReply | undefined) => void)[];
  }
  const pending = new Map<string, Batch>();
  // Runs once the requests read in this turn of the event loop have all asked: each group's
  // requests become one script call counting them in arrival order (consume-script.ts), and the
  // calls of one flush leave in one write (autopipelining).
  const flush = () => {
    const batches = [...pending.values()];
    pending.clear();
    for (const batch of batches) void send(batch);
  };
  const send = async ({ subject, limits, now, windows: w, eligible, waiters }: Batch) => {
    const base = `${options.keyPrefix}{${subject}}:`;
    let reply: number[];
    try {
      reply = await redis.rateLimitConsume(
        `${base}m:${w.minuteIndex}`,
        `${base}d:${w.dayIndex}`,
        `${base}ban`,
        `${base}rm:${w.minuteIndex}`,
        `${base}rd:${w.dayIndex}`,
        limits.perMinute,
        limits.perDay,
        now,
        w.minuteEndMs,
        w.dayEndMs,
        ban.threshold,
        ban.seconds,
        eligible,
        waiters.length,
      );
    } catch (err) {
      options.onStoreError?.();
      degrade(err);
      bypassUntil = performance.now() + BYPASS_AFTER_FAILURE_MS;
      // A command that timed out on a live socket means a dead peer: reconnect rather than wait.
      if (err instanceof Error && /timed out/i.test(err.message)) redis.disconnect(true);
      for (const waiter of waiters) waiter(undefined);
      return;
    }
    recover();
    for (let i = 0; i < waiters.length; i++) {
      (waiters[i] as (reply: ConsumeReply) => void)(reply.slice(i * 4, i * 4 + 4) as ConsumeReply);
    }
  };

  return {
    async consume(subject, limits, nowMs, consumeOptions) {
      if (redis.status !== "ready" || performance.now() < bypassUntil) {
        return fallback.consume(subject, limits, nowMs, consumeOptions);
      }
      const now = Math.floor(nowMs);
      const eligible = consumeOptions?.banEligible ? 1 : 0;
      // Requests of one subject, limits and millisecond are counted by one script call.
      const group = `${subject}\n${now}\n${limits.perMinute}\n${limits.perDay}\n${eligible}`;
      let batch = pending.get(group);
      if (batch === undefined) {
        batch = { subject, limits, now, windows: windowsAt(now), eligible, waiters: [] };
        pending.set(group, batch);
        if (pending.size === 1) setImmediate(flush);
      }
      const waiters = batch.waiters;
      const reply = await new Promise<ConsumeReply | undefined>((resolve) => waiters.push(resolve));
      // Undefined: the call failed (flush counted the failure once) and this request is counted
      // per instance, as every request is until Redis answers again.
      if (reply === undefined) return fallback.consume(subject, limits, nowMs, consumeOptions);
      const [code, minute, day, banUntil] = reply;
      const outcome: Outcome =
        code === 2 ? { kind: "banned", untilSeconds: banUntil } : { kind: OUTCOMES[code ? 1 : 0] };
      return decide(outcome, { minute, day }, limits, now, batch.windows);
    },
    async peek(subject, limits, nowMs) {
      if (redis.status !== "ready" || performance.now() < bypassUntil) {
        return fallback.peek(subject, limits, nowMs);
      }
      const now = Math.floor(nowMs);
      const w = windowsAt(now);
      const base = `${options.keyPrefix}{${subject}}:`;
      let values: Array<string | null>;
      try {
        values = await redis.mget(
          `${base}m:${w.minuteIndex}`,
          `${base}d:${w.dayIndex}`,
          `${base}ban`,
        );
      } catch (err) {
        options.onStoreError?.();
        degrade(err);
        bypassUntil = performance.now() + BYPASS_AFTER_FAILURE_MS;
        return fallback.peek(subject, limits, nowMs);
      }
      const [minute, day, banUntil] = values.map((value) => Number(value ?? 0)) as [
        number,
        number,
        number,
      ];
      const outcome: Outcome =
        banUntil * 1000 > now ? { kind: "banned", untilSeconds: banUntil } : { kind: "allowed" };
      return decide(outcome, { minute, day }, limits, now, w);
    },
    async usage(subject, nowMs) {
      await waitReady();
      const w = windowsAt(Math.floor(nowMs));
      const base = `${options.keyPrefix}{${subject}}:`;
      const values = await redis.mget(
        `${base}m:${w.minuteIndex}`,
        `${base}d:${w.dayIndex}`,
        `${base}ban`,
      );
      const [minute, day, banUntil] = values.map((value) => Number(value ?? 0)) as [
        number,
        number,
        number,
      ];
      return { minute, day, bannedUntil: banUntil * 1000 > nowMs ? banUntil : null };
    },
    async check() {
      await waitReady();
      await redis.ping();
    },
    async close() {
      await fallback.close();
      if (redis.status === "ready") await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
