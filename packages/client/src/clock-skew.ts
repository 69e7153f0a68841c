/**
 * Tracks how far the server's clock is ahead of the client's, from responses' `Date` headers, so an
 * absolute reset (`X-RateLimit-Reset`, or `Date` plus `RateLimit`'s `t`: server time) can be
 * turned into a client instant.
 *
 * `Date` has whole seconds and is stamped before the response travels, so each sample
 * `Date - receivedAt` is a lower bound of the true offset (never above it). The estimate is the
 * highest sample of the last one to two minutes: it errs only low, which makes the client wait a
 * little longer than needed, never wake before the server's window has reset. Old samples are
 * dropped so a client clock that jumps forward (NTP) is followed within two minutes.
 */
export function createClockSkew(): {
  /** Learns from a response received at `receivedAt` (client ms) with this `Date` header. */
  observe(date: string | null, receivedAt: number): void;
  /** Server time minus client time in ms; 0 until a `Date` header was seen. */
  offsetMs(): number;
} {
  let bucket = 0;
  let current = -Infinity;
  let previous = -Infinity;
  let lastDate: string | null = null;
  let lastDateMs = Number.NaN;
  return {
    observe(date, receivedAt) {
      if (date === null) return;
      if (date !== lastDate) {
        // The header changes once a second; parse it only then.
        lastDate = date;
        lastDateMs = Date.parse(date);
      }
      if (Number.isNaN(lastDateMs)) return;
      const minute = Math.floor(receivedAt / 60_000);
      if (minute !== bucket) {
        previous = minute === bucket + 1 ? current : -Infinity;
        current = -Infinity;
        bucket = minute;
      }
      current = Math.max(current, lastDateMs - receivedAt);
    },
    offsetMs() {
      const best = Math.max(current, previous);
      return Number.isFinite(best) ? best : 0;
    },
  };
}
