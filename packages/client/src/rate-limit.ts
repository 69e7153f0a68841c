import { SPEC_HEADERS } from "./spec-headers.js";

/** The caller's rate-limit window, as the latest response described it. */
export interface RateLimitInfo {
  /** Requests allowed in the window (`RateLimit-Policy`'s `q`, or `X-RateLimit-Limit`). */
  readonly limit: number;
  /** Requests left in the window (`RateLimit`'s `r`, or `X-RateLimit-Remaining`). */
  readonly remaining: number;
  /** When the window resets (the response's `Date` plus `RateLimit`'s `t`, or `X-RateLimit-Reset`). */
  readonly resetAt: Date;
}

const NON_NEGATIVE_INTEGER = /^\d{1,15}$/;

/**
 * Reads the window nearest exhaustion: from the IETF fields `RateLimit` and `RateLimit-Policy`
 * (draft-ietf-httpapi-ratelimit-headers-10) when both are present and well formed, else from
 * `X-RateLimit-*`; undefined when neither describes one.
 */
export function parseRateLimit(headers: Headers): RateLimitInfo | undefined {
  return fromIetfFields(headers) ?? fromLegacyHeaders(headers);
}

/** `X-RateLimit-*`: undefined unless all three are non-negative integers. */
function fromLegacyHeaders(headers: Headers): RateLimitInfo | undefined {
  const limit = headers.get(SPEC_HEADERS.rateLimitLimit);
  const remaining = headers.get(SPEC_HEADERS.rateLimitRemaining);
  const reset = headers.get(SPEC_HEADERS.rateLimitReset);
  if (limit === null || remaining === null || reset === null) return undefined;
  if (
    !NON_NEGATIVE_INTEGER.test(limit) ||
    !NON_NEGATIVE_INTEGER.test(remaining) ||
    !NON_NEGATIVE_INTEGER.test(reset)
  ) {
    return undefined;
  }
  return {
    limit: Number(limit),
    remaining: Number(remaining),
    resetAt: new Date(Number(reset) * 1000),
  };
}

/**
 * `RateLimit` and `RateLimit-Policy`: of the service limits with `r` and `t` whose policy states
 * its quota `q`, the one with the fewest requests left (on a tie, the later reset: only then can a
 * request go again). `t` counts from the response's `Date` (server time, as `X-RateLimit-Reset`
 * is), or from the client's clock without one. A malformed field is ignored (the draft's section
 * 9), and so is a member that is not a String.
 */
function fromIetfFields(headers: Headers): RateLimitInfo | undefined {
  const limits = parseList(headers.get(SPEC_HEADERS.rateLimit));
  const policies = parseList(headers.get(SPEC_HEADERS.rateLimitPolicy));
  let best: RateLimitInfo | undefined;
  let bestT = 0;
  for (const [name, { r, t }] of limits ?? []) {
    const q = policies?.get(name)?.q;
    if (r === undefined || t === undefined || q === undefined) continue;
    if (!best || r < best.remaining || (r === best.remaining && t > bestT)) {
      const date = Date.parse(headers.get("date") ?? "");
      best = { limit: q, remaining: r, resetAt: new Date((date || Date.now()) + t * 1000) };
      bestT = t;
    }
  }
  return best;
}

// RFC 9651 (Structured Field Values), what a List of Items takes: a member's bare item (section
// 3.3) and its parameters (3.1.2). A parameter's non-negative Integer value is kept (the fields'
// `q`, `r`, `t`); a String member is kept by its value. Anything off the grammar (an Inner List
// included, which these fields never hold) makes the whole field malformed.
const BARE = String.raw`(?:-?\d{1,15}(?:\.\d{1,3})?|"(?:[ !#-\[\]-~]|\\["\\])*"|[A-Za-z*][!#-'*+.^\w\`|~:/-]*|:[\w+/=]*:|\?[01]|@-?\d{1,15}|%"[ !#-~]*")(?![\d.])`;
const PARAMETER = String.raw`;[ ]*([a-z*][a-z\d_.*-]*)(?:=(${BARE}))?`;
const MEMBER = new RegExp(
  String.raw`(${BARE})((?:${PARAMETER.replace(/\((?!\?)/g, "(?:")})*)[ \t]*(?:,[ \t]*(?=\S)|$)`,
  "y",
);
const PARAMETERS = new RegExp(PARAMETER, "g");

/** A List field's String members and their integer parameters; undefined when malformed. */
function parseList(field: string | null): Map<string, Record<string, number>> | undefined {
  const text = (field ?? "").trim();
  const members = new Map<string, Record<string, number>>();
  MEMBER.lastIndex = 0;
  while (MEMBER.lastIndex < text.length) {
    const [, value = "", parameters = ""] = MEMBER.exec(text) ?? [];
    if (!value) return undefined;
    const params: Record<string, number> = {};
    for (const [, key = "", raw = ""] of parameters.matchAll(PARAMETERS)) {
      if (/^\d+$/.test(raw)) params[key] = +raw;
      else delete params[key];
    }
    if (value[0] === '"') members.set(value.slice(1, -1).replace(/\\(.)/g, "$1"), params);
  }
  return members;
}
