// @ts-check
// Prism logs through pino as JSON lines, several per request at `info`. The mock shows them as
// one short readable line each, and only from the chosen level up (default `warn`: request
// violations and failures), so a benchmark or a busy frontend is not slowed by logging.

/** Prism's log levels, pino numbering (`success` is Prism's own). */
export const LOG_LEVELS = {
  trace: 10,
  debug: 20,
  info: 30,
  success: 32,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

const LABELS = new Map(
  Object.entries(LOG_LEVELS).map(
    ([name, value]) => /** @type {[number, string]} */ ([value, name]),
  ),
);

/** Turns one of Prism's JSON log lines into a readable line, or null when it is not JSON. */
export function formatPrismLogLine(/** @type {string} */ line) {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return null;
  }
  const level = LABELS.get(entry.level) ?? String(entry.level);
  const request = entry.input
    ? ` ${String(entry.input.method).toUpperCase()} ${entry.input.url?.path}`
    : "";
  const source = entry.name ? ` [${entry.name}]` : "";
  return `[mock] ${level}${source}${request}: ${entry.msg}`;
}

/** A pino destination that writes Prism's log lines, formatted, to `out`. */
export function prismLogDestination(/** @type {NodeJS.WritableStream} */ out = process.stderr) {
  return {
    /** @param {string} chunk */
    write(chunk) {
      for (const line of chunk.split("\n")) {
        if (!line) continue;
        out.write(`${formatPrismLogLine(line) ?? line}\n`);
      }
    },
  };
}
