/** Structured JSON logs (pino) on stdout. */
import { type Logger, pino } from "pino";
import type { AppConfig } from "./config.js";

export type { Logger } from "pino";

/** The process logger: JSON lines with ISO times; request lines add a request id. */
export function createLogger(config: Pick<AppConfig, "logLevel">): Logger {
  return pino({
    level: config.logLevel,
    base: { service: "animal-store" },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Belt and braces: nothing logs headers, but if something ever does, keys stay out.
    redact: [
      "authorization",
      "*.authorization",
      "headers.authorization",
      "*.headers.authorization",
    ],
  });
}
