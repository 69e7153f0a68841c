/**
 * The ban rule's defaults (info["x-rate-limit-ban"] and the "Ban rule" prose), held here once;
 * ban.test.ts proves they equal the bundled spec.
 */

/** How many more requests over the limit, in one window, start a ban, and how long it lasts. */
export interface BanSettings {
  /** Requests rejected with `rate_limited` in one window before the next one starts a ban. */
  threshold: number;
  /** Length of a ban in seconds; 0 turns bans off. */
  seconds: number;
}

/** The defaults the contract documents; operators may change both. */
export const BAN_DEFAULTS: Readonly<BanSettings> = { threshold: 10, seconds: 600 };
