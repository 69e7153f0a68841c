/**
 * The deprecated operation's dates and successor (getPet's x-deprecated-since, x-sunset, the
 * Sunset header's const and the Link example), held here once; sunset.test.ts proves they equal
 * the bundled spec.
 */

/** getPet is deprecated since this instant (RFC 9745 `Deprecation`). */
export const GET_PET_DEPRECATED_SINCE = new Date("2026-01-01T00:00:00Z");

/** getPet is removed at this instant (RFC 8594 `Sunset`); from then on it answers 410. */
export const GET_PET_SUNSET = new Date("2030-12-05T00:00:00Z");

/** The replacement of getPet: the list with its `status` filter. */
export const GET_PET_SUCCESSOR = "/v1/pets";
