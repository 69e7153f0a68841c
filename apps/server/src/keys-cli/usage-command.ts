/**
 * `keys usage [id] [--json]`: each key's requests this UTC minute and today against its limits,
 * read from the live rate-limit store. With REDIS_URL, from Redis: the counts every instance
 * shares. Without it each instance counts in its own memory, so the command asks the running
 * server's metrics listener (METRICS_HOST:METRICS_PORT, GET /usage/keys/<id>): the figures of
 * that one instance only, and it says so.
 */
import { parseArgs } from "node:util";
import type { RateLimitPolicy } from "@animal-store/openapi";
import {
  type ApiKeyRecord,
  type AppConfig,
  createRedisRateLimiter,
  type KeyUsage,
  keyUsage,
} from "@animal-store/openapi-engine";
import type { Store } from "../store/index.js";

/** Where the command writes. */
interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

async function fromRedis(
  keys: ApiKeyRecord[],
  redisUrl: string,
  config: AppConfig,
  policy: RateLimitPolicy,
) {
  const limiter = createRedisRateLimiter({
    url: redisUrl,
    keyPrefix: config.rateLimit.redisKeyPrefix,
    ban: policy.ban,
  });
  try {
    const nowMs = Date.now();
    return await Promise.all(
      keys.map((key) => keyUsage(key, { limiter, policy, scope: "shared", nowMs })),
    );
  } finally {
    await limiter.close();
  }
}

async function fromInstance(keys: ApiKeyRecord[], config: AppConfig, io: Io): Promise<KeyUsage[]> {
  const { host, port } = config.metrics;
  if (port === 0) {
    throw new Error(
      "no REDIS_URL and METRICS_PORT=0: the counts live in each server's memory, which only its metrics listener shows",
    );
  }
  const base = `http://${host.includes(":") ? `[${host}]` : host}:${port}/usage/keys/`;
  io.stderr.write(
    `keys: counts of the one server at ${base} (no REDIS_URL: each instance counts on its own; these are that instance's alone)\n`,
  );
  return Promise.all(
    keys.map(async (key) => {
      let res: Response;
      try {
        res = await fetch(`${base}${encodeURIComponent(key.id)}`, {
          signal: AbortSignal.timeout(5000),
        });
      } catch (err) {
        throw new Error(
          `no server answers at ${base} (${(err as Error).message}); is it running with this METRICS_PORT?`,
        );
      }
      if (!res.ok) throw new Error(`${base}${key.id}: ${res.status} ${await res.text()}`);
      return (await res.json()) as KeyUsage;
    }),
  );
}

function table(rows: KeyUsage[]): string {
  const lines = [["ID", "NAME", "PLAN", "THIS MINUTE", "TODAY", "BANNED UNTIL", "SCOPE"]];
  for (const row of rows) {
    lines.push([
      row.id,
      row.name,
      row.plan,
      `${row.minute.used}/${row.minute.limit}`,
      `${row.day.used}/${row.day.limit}`,
      row.bannedUntil ?? "-",
      row.scope,
    ]);
  }
  const widths =
    lines[0]?.map((_, c) => Math.max(...lines.map((line) => line[c]?.length ?? 0))) ?? [];
  return lines
    .map(
      (line) =>
        `${line
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join("  ")
          .trimEnd()}\n`,
    )
    .join("");
}

/** Runs `keys usage`; throws `usageError(...)` for bad arguments. */
export async function usage(
  store: Store,
  args: string[],
  io: Io,
  context: { config: AppConfig; policy: RateLimitPolicy; usageError: (message: string) => Error },
): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: "boolean" } },
  });
  if (positionals.length > 1) throw context.usageError("usage takes at most one key id");
  const [id] = positionals;
  const all = await store.listApiKeys();
  const keys =
    id === undefined
      ? all.filter((key) => key.revokedAt === null)
      : all.filter((key) => key.id === id);
  if (id !== undefined && keys.length === 0) throw new Error(`no key with id ${id}`);
  const { redisUrl } = context.config.rateLimit;
  const rows =
    redisUrl === null
      ? await fromInstance(keys, context.config, io)
      : await fromRedis(keys, redisUrl, context.config, context.policy);
  io.stdout.write(values.json ? `${JSON.stringify(rows, null, 2)}\n` : table(rows));
}
