/**
 * Accepted fixes (`openapi/accepted-changes.yaml`): changes `redocly diff` rates major that the
 * contract accepts without a new major version, because its own words already promised what the
 * change enforces. Each entry names the diff rule, the JSON pointer and the new value; only a
 * verdict matching all three is re-rated, so any other change to the same place still counts.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";

/** One accepted change and why. */
export interface AcceptedChange {
  pointer: string;
  ruleId: string;
  /** The new value, as `redocly diff` quotes it (`... to '<value>'`). */
  to: string;
  rating: "minor" | "patch";
  reason: string;
}

function text(entry: Record<string, unknown>, field: string, at: string): string {
  const value = entry[field];
  if (typeof value !== "string" || value === "") throw new Error(`${at}.${field} must be text`);
  return value;
}

/** The accepted changes listed in `path`; throws naming the entry that is not well formed. */
export function readAcceptedChanges(path: string): AcceptedChange[] {
  const document = parse(readFileSync(path, "utf8")) as { accepted?: unknown } | null;
  const list = document?.accepted ?? [];
  if (!Array.isArray(list)) throw new Error(`${path}: accepted must be a list`);
  return list.map((raw, i) => {
    const at = `${path}: accepted[${i}]`;
    const entry = (raw ?? {}) as Record<string, unknown>;
    const rating = entry.rating;
    if (rating !== "minor" && rating !== "patch") {
      throw new Error(`${at}.rating must be minor or patch`);
    }
    return {
      pointer: text(entry, "pointer", at),
      ruleId: text(entry, "ruleId", at),
      to: text(entry, "to", at),
      rating,
      reason: text(entry, "reason", at),
    };
  });
}

/** The accepted change that a major verdict (`ruleId`, `message`, at `pointer`) is, if any. */
export function acceptedChangeFor(
  accepted: readonly AcceptedChange[],
  verdict: { ruleId: string; message: string },
  pointer: string,
): AcceptedChange | undefined {
  return accepted.find(
    (change) =>
      change.ruleId === verdict.ruleId &&
      change.pointer === pointer &&
      verdict.message.includes(` to '${change.to}'`),
  );
}
