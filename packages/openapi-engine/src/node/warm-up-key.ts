/** The in-memory key that warm-up requests use; their access logs are not written. */

/** Id of the warm-up key's record. */
export const WARM_UP_KEY_ID = "warm-up";
