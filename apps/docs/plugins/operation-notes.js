// @ts-check
// What each operation's description gains on the docs page, written from the spec's own
// extensions: the rate-limit policy (`info.x-rate-limit-plans`, `info.x-rate-limit-ban`) and, for a
// deprecated operation, its deprecation → sunset → 410 timeline (`x-deprecated-since`, `x-sunset`,
// `x-replacement`). Each shows what the contract states: without the extensions there is no note
// (Redoc marks a deprecated operation itself), with some of them the rows they give.

/** @typedef {Record<string, any>} Json */

const fmt = new Intl.NumberFormat("en-US");
/** @param {unknown} value */
const count = (value) => (typeof value === "number" ? fmt.format(value) : String(value));
/** @param {string} word */
const capitalised = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/** The "Rate limit" section: every plan's limits and the ban rule; undefined without plans. */
export function rateLimitNote(/** @type {Json} */ root) {
  const plans = root.info?.["x-rate-limit-plans"];
  const ban = root.info?.["x-rate-limit-ban"];
  if (!plans) return undefined;
  const rows = Object.entries(plans).map(
    ([plan, limits]) =>
      `| ${capitalised(plan)} | ${count(limits.perMinute)} | ${count(limits.perDay)} |`,
  );
  return [
    "#### Rate limit",
    "",
    "Counted per API key; every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`.",
    "",
    "| Plan | Requests per minute | Requests per day |",
    "|---|---|---|",
    ...rows,
    "",
    [
      "Over a limit the answer is `429` with `Retry-After`.",
      ...(ban
        ? [
            `${count(ban.rejectedRequestsBeforeBan)} more requests while limited ban the key for ${count(ban.banSeconds)} seconds.`,
          ]
        : []),
      "`@animal-store/client` holds its calls back until the window resets, so parallel calls of one client do not run into a `429`.",
    ].join(" "),
  ].join("\n");
}

/**
 * The "Deprecation timeline" section of a deprecated operation, with the rows its extensions give;
 * undefined for the others and for one that states none of them.
 */
export function deprecationNote(/** @type {Json} */ operation) {
  if (!operation.deprecated) return undefined;
  const since = operation["x-deprecated-since"];
  const sunset = operation["x-sunset"];
  const replacement = operation["x-replacement"];
  if (!since && !sunset && !replacement) return undefined;
  const headers = sunset ? "`Deprecation`, `Sunset`" : "`Deprecation`";
  const rows = [
    ...(since
      ? [
          `| ${since} | Deprecated: every response carries ${replacement ? `${headers} and a \`Link\` to \`${replacement}\`` : headers}. |`,
        ]
      : []),
    ...(sunset
      ? [
          `| ${sunset} 00:00:00 UTC | Sunset: from this instant the operation answers \`410\` with code \`gone\`. |`,
        ]
      : []),
  ];
  return [
    "#### Deprecation timeline",
    ...(rows.length > 0 ? ["", "| When | What happens |", "|---|---|", ...rows] : []),
    ...(replacement ? ["", `Use \`${replacement}\` instead.`] : []),
  ].join("\n");
}
