/**
 * Structured JSON logs (pino) on stdout, written asynchronously in batches: lines collect in a
 * buffer that is written once it holds 4 KiB, every 250 ms, and at exit (pino's "asynchronous
 * logging"): a write per line was a measurable share of a request under load (apps/bench/README.md).
 * A process killed with SIGKILL loses at most the last 250 ms of lines.
 */
import { type Logger, pino } from "pino";
import type { AppConfig } from "./config.js";

export type { Logger } from "pino";

/**
 * pino's `isoTime`, made once per millisecond: under load many lines share a millisecond, and
 * formatting the date was a visible share of each access line (apps/bench/README.md).
 */
export function cachedIsoTime(now: () => number = Date.now): () => string {
  let last = Number.NaN;
  let text = "";
  return () => {
    const ms = now();
    if (ms !== last) {
      last = ms;
      text = `,"time":"${new Date(ms).toISOString()}"`;
    }
    return text;
  };
}

/** The process logger: JSON lines with ISO times, each naming `service`; request lines add a request id. */
export function createLogger(config: Pick<AppConfig, "logLevel">, service: string): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { service },
      timestamp: cachedIsoTime(),
      // Belt and braces: nothing logs headers, but if something ever does, keys stay out.
      redact: [
        "authorization",
        "*.authorization",
        "headers.authorization",
        "*.headers.authorization",
      ],
    },
    pino.destination({ dest: 1, minLength: 4096, sync: false, periodicFlush: 250 }),
  );
}
