/**
 * The ban rule: its numbers come from the contract (`info.x-rate-limit-ban`), and operators may
 * override either one (RATE_LIMIT_BAN_THRESHOLD, RATE_LIMIT_BAN_SECONDS).
 */

/** How many more requests over the limit, in one window, start a ban, and how long it lasts. */
export interface BanSettings {
  /** Requests rejected with `rate_limited` in one window before the next one starts a ban. */
  threshold: number;
  /** Length of a ban in seconds; 0 turns bans off. */
  seconds: number;
}

/** The contract's ban rule with the operator's overrides applied. */
export function banSettings(
  contract: BanSettings,
  overrides: Partial<BanSettings> | undefined,
): BanSettings {
  return {
    threshold: overrides?.threshold ?? contract.threshold,
    seconds: overrides?.seconds ?? contract.seconds,
  };
}
