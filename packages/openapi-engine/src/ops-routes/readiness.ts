/**
 * Readiness: the backing services probed, and every change of their state logged once with its
 * cause (a database refusing connections, a Redis that went away), never the same failure on
 * every probe, never a secret: a URL's password in a driver's message is masked.
 */
import type { Logger } from "pino";

/** Something whose backing service can be probed. */
export interface Probe {
  check(): Promise<void>;
}

/** What one round of probes found. */
export interface Readiness {
  /** The probes that did not answer, by name. */
  failed: string[];
}

/** `text` with the password of any URL in it masked (`postgres://app:***@db/...`). */
export function maskSecrets(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]*@/gi, "$1***@");
}

/**
 * The cause of `err` in one line: each message down its `cause` chain (a wrapper such as "the
 * database is not reachable yet" says little; the driver's "connect ECONNREFUSED 127.0.0.1:5999"
 * says why), with each error's code, secrets masked.
 */
export function describeCause(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (current instanceof Error) {
      const { code } = current as { code?: unknown };
      // AggregateError (several addresses refused) carries its reasons in `errors`.
      const inner = (current as { errors?: unknown[] }).errors;
      const message = current.message || inner?.map((e) => (e as Error).message).join("; ") || "";
      parts.push(
        typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message,
      );
      current = current.cause;
    } else {
      parts.push(String(current));
      current = undefined;
    }
  }
  return maskSecrets(parts.filter(Boolean).join(": "));
}

/** Probes the backing services; `check` logs what changed since the last check. */
export interface ReadinessMonitor {
  check(): Promise<Readiness>;
}

/** Probes `probes` on demand, logging each probe's change of state (and its first failure). */
export function readinessMonitor(probes: Record<string, Probe>, logger: Logger): ReadinessMonitor {
  const names = Object.keys(probes);
  // Unknown at first: the first failure is logged, a first success is not news.
  const lastFailed = new Map<string, boolean>();
  return {
    async check(): Promise<Readiness> {
      const results = await Promise.allSettled(names.map((name) => probes[name]?.check()));
      const failed: string[] = [];
      for (const [i, result] of results.entries()) {
        const name = names[i] as string;
        const nowFailed = result.status === "rejected";
        const before = lastFailed.get(name);
        lastFailed.set(name, nowFailed);
        if (nowFailed) {
          failed.push(name);
          if (before !== true) {
            logger.warn({ probe: name, cause: describeCause(result.reason) }, `${name} not ready`);
          }
        } else if (before === true) {
          logger.info({ probe: name }, `${name} ready again`);
        }
      }
      return { failed };
    },
  };
}
