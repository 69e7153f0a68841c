/**
 * Machine services for test suites (PostgreSQL, Redis, Chromium): a suite asks for one, gets its
 * address when it is reachable, and is skipped with a plain reason when it is not, except where
 * REQUIRE_SERVICES=1 (CI), where a missing service fails the run instead.
 */
import { existsSync } from "node:fs";
import { connect } from "node:net";

/** The services a suite can depend on, with the variable that points at each. */
export const SERVICES = {
  postgres: { label: "PostgreSQL", envVar: "TEST_DATABASE_URL", defaultPort: 5432 },
  redis: { label: "Redis", envVar: "TEST_REDIS_URL", defaultPort: 6379 },
  chromium: { label: "Chromium", envVar: "CHROMIUM_PATH", defaultPort: 0 },
} as const;

export type ServiceName = keyof typeof SERVICES;

/** What a suite learns about a service: its address, or why it cannot run. */
export type ServiceStatus = { available: true; url: string } | { available: false; reason: string };

/** True where every service suite must run (CI). */
export function servicesRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.REQUIRE_SERVICES === "1";
}

function tcpReachable(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** Checks one service without side effects: set, and reachable (TCP) or present (file). */
export async function probeService(
  name: ServiceName,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServiceStatus> {
  const service = SERVICES[name];
  const value = env[service.envVar];
  if (!value) return { available: false, reason: `${service.envVar} is not set` };
  if (name === "chromium") {
    return existsSync(value)
      ? { available: true, url: value }
      : { available: false, reason: `${service.envVar}=${value} does not exist` };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { available: false, reason: `${service.envVar} is not a URL` };
  }
  const port = Number(url.port || service.defaultPort);
  const host = url.hostname || "127.0.0.1";
  return (await tcpReachable(host, port, 2000))
    ? { available: true, url: value }
    : { available: false, reason: `${service.label} at ${host}:${port} is not reachable` };
}

/**
 * Resolves a service for a suite. Unavailable: throws under REQUIRE_SERVICES=1, otherwise prints
 * which suite is not run and why, so `pnpm test` on a laptop says so plainly.
 */
export async function useService(name: ServiceName, suite: string): Promise<ServiceStatus> {
  const status = await probeService(name);
  if (status.available) return status;
  const message = `${suite}: not run, ${status.reason} (needs ${SERVICES[name].label}; CI always runs it)`;
  if (servicesRequired()) throw new Error(`REQUIRE_SERVICES=1 but ${message}`);
  console.warn(`[skipped suite] ${message}`);
  return status;
}
