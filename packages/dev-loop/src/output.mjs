// @ts-check
// A service's output on the loop's terminal: line by line, each tagged with the service's name.
// In development a JSON log line (pino's) is shown as one readable line (time, level, message,
// then its other fields); with `json` (NODE_ENV=production, or DEV_LOOP_JSON_LOGS=1) lines pass
// through untouched.

const LEVELS = /** @type {Record<number, string>} */ ({
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
});
/** Fields every line has, shown in their own place (or not at all). */
const OWN = new Set(["level", "time", "msg", "pid", "hostname", "service"]);

/** `{"level":30,"time":...,"msg":"listening","url":"..."}` → `03:10:01 INFO  listening url=...`. */
export function prettyLine(/** @type {string} */ line) {
  if (!line.startsWith("{")) return line;
  /** @type {Record<string, unknown>} */
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== "object" || entry === null || !("level" in entry)) return line;
  const time =
    typeof entry.time === "string" || typeof entry.time === "number"
      ? new Date(entry.time).toISOString().slice(11, 23)
      : "";
  const level = (LEVELS[Number(entry.level)] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key]) => !OWN.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  return [time, level, entry.msg ?? "", ...fields].filter((part) => part !== "").join(" ");
}

/** Whether service output stays raw JSON (production, or asked for). */
export function jsonLogs(/** @type {Record<string, string | undefined>} */ env) {
  return env.NODE_ENV === "production" || env.DEV_LOOP_JSON_LOGS === "1";
}

/** Copies a child's output line by line, each line tagged with the service's name. */
export function relay(
  /** @type {NodeJS.ReadableStream} */ stream,
  /** @type {string} */ name,
  /** @type {(line: string) => void} */ print,
  { json = false } = {},
) {
  const show = (/** @type {string} */ line) => {
    const text = json ? line : prettyLine(line);
    print(text.startsWith(`[${name}]`) ? text : `[${name}] ${text}`);
  };
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (/** @type {string} */ chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) show(line);
  });
  stream.on("end", () => pending && show(pending));
}
