/** Dates written in prose (`2030-12-05`, `5 December 2030`), found with the text line they are on. */

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const ISO = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const WRITTEN = new RegExp(`\\b(\\d{1,2}) (${MONTHS.join("|")}) (\\d{4})\\b`, "gi");

/** A date found in a text: as `YYYY-MM-DD`, as written, and its 0-based line in the text. */
export interface ProseDate {
  date: string;
  written: string;
  line: number;
}

const two = (n: number | string) => String(n).padStart(2, "0");

/** Every date in `text`. */
export function proseDates(text: string): ProseDate[] {
  const found: ProseDate[] = [];
  text.split("\n").forEach((content, line) => {
    for (const [written, year, month, day] of content.matchAll(ISO)) {
      found.push({ date: `${year}-${month}-${day}`, written, line });
    }
    for (const [written, day, month, year] of content.matchAll(WRITTEN)) {
      const index = MONTHS.indexOf(String(month).toLowerCase()) + 1;
      found.push({ date: `${year}-${two(index)}-${two(String(day))}`, written, line });
    }
  });
  return found;
}

/** The date part (`YYYY-MM-DD`) of an `x-sunset` or `x-deprecated-since` value. */
export function datePart(value: unknown): string {
  return String(value).slice(0, 10);
}
