/** What a response said about its operation being deprecated. */
export interface DeprecationNotice {
  /** The spec's operationId (e.g. "getPet"), or "METHOD /path" for a path the spec does not list. */
  readonly operation: string;
  /** When the operation was deprecated (`Deprecation: @<unix seconds>`), if the server said. */
  readonly deprecatedAt: Date | undefined;
  /** When the operation stops working (`Sunset`), if the server said. */
  readonly sunset: Date | undefined;
  /** The `Link` header, which points at the replacement. */
  readonly link: string | undefined;
}

/** Called once per operation per client when a response carries `Deprecation` or `Sunset`. */
export type DeprecationHandler = (notice: DeprecationNotice) => void;

/** The default handler: one `console.warn` per deprecated operation. */
export function warnDeprecation(notice: DeprecationNotice): void {
  const sunset = notice.sunset ? `; it will be removed on ${notice.sunset.toISOString()}` : "";
  const link = notice.link ? ` (see ${notice.link})` : "";
  console.warn(`[@animal-store/client] ${notice.operation} is deprecated${sunset}${link}.`);
}

/** Reads `Deprecation`: RFC 9745 `@<unix seconds>`, or an older draft's HTTP-date; else undefined. */
export function parseDeprecationDate(value: string | null): Date | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^@-?\d+$/.test(text)) return new Date(Number(text.slice(1)) * 1000);
  return parseHttpDate(text);
}

/** Reads an HTTP-date such as `Sunset`; undefined when absent or unreadable. */
export function parseHttpDate(value: string | null): Date | undefined {
  if (value === null || !/[a-z]{3}/i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : new Date(at);
}

/** Builds the observer that reports each deprecated operation once for this client. */
export function createDeprecationObserver(
  onDeprecation: DeprecationHandler,
): (notice: DeprecationNotice) => void {
  const reported = new Set<string>();
  return (notice) => {
    if (reported.has(notice.operation)) return;
    reported.add(notice.operation);
    onDeprecation(notice);
  };
}
