/**
 * How far the server's clock is ahead of the client's, from responses' `Date` headers, so an
 * absolute `X-RateLimit-Reset` (server time) can be turned into a client instant.
 *
 * `Date` has whole seconds and is stamped before the response travels, so each sample
 * `Date - receivedAt` is a lower bound of the true offset (never above it). The estimate is the
 * highest sample of the last one to two minutes: it errs only low, which makes the client wait a
 * little longer than needed, never wake before the server's window has reset. Old samples are
 * dropped so a client clock that jumps forward (NTP) is followed within two minutes.
 */
export class ClockSkew {
  private bucket = 0;
  private current = Number.NEGATIVE_INFINITY;
  private previous = Number.NEGATIVE_INFINITY;
  private lastDate: string | null = null;
  private lastDateMs = Number.NaN;

  /** Learns from a response received at `receivedAt` (client ms) with this `Date` header. */
  observe(date: string | null, receivedAt: number): void {
    if (date === null) return;
    if (date !== this.lastDate) {
      // The header changes once a second; parse it only then.
      this.lastDate = date;
      this.lastDateMs = Date.parse(date);
    }
    if (Number.isNaN(this.lastDateMs)) return;
    const bucket = Math.floor(receivedAt / 60_000);
    if (bucket !== this.bucket) {
      this.previous = bucket === this.bucket + 1 ? this.current : Number.NEGATIVE_INFINITY;
      this.current = Number.NEGATIVE_INFINITY;
      this.bucket = bucket;
    }
    this.current = Math.max(this.current, this.lastDateMs - receivedAt);
  }

  /** Server time minus client time in ms; 0 until a `Date` header was seen. */
  offsetMs(): number {
    const best = Math.max(this.current, this.previous);
    return Number.isFinite(best) ? best : 0;
  }
}
