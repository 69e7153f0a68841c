/**
 * JSON text kept exactly, or refused (RFC 8259 section 8, RFC 7493 section 2.1): body bytes that
 * are not UTF-8 would be decoded with U+FFFD in their place, and a `\uD800` escape without its
 * pair parses to a string no UTF-8 can hold (stored and echoed as U+FFFD). Either way the data
 * the client sent would be altered, so the body is refused instead. Runs on the raw bytes: a
 * native UTF-8 check, and the escape scan only when the body holds a `\u` at all.
 */
import { isUtf8 } from "node:buffer";

// One escape at a time, so `\\uD800` (an escaped backslash, then text) is no escape; a
// surrogate escape is captured.
const ESCAPE = /\\(?:u([dD][89a-fA-F][0-9a-fA-F]{2})|[\s\S])/g;

/** Whether the JSON text has a `\uD800`-`\uDFFF` escape that is not half of a pair. */
export function hasLoneSurrogateEscape(text: string): boolean {
  let highEnd = -1;
  ESCAPE.lastIndex = 0;
  for (let match = ESCAPE.exec(text); match !== null; match = ESCAPE.exec(text)) {
    const unit = match[1];
    if (highEnd !== -1 && (match.index !== highEnd || unit === undefined)) return true;
    if (unit === undefined) {
      highEnd = -1;
      continue;
    }
    const low = Number.parseInt(unit, 16) >= 0xdc00;
    if (highEnd !== -1) {
      if (!low) return true;
      highEnd = -1;
    } else if (low) {
      return true;
    } else {
      highEnd = match.index + 6;
    }
  }
  return highEnd !== -1;
}

/** The UTF-8 JSON text of `body`, or why it cannot be kept exactly. */
export function decodeExactly(body: Buffer): string | { problem: string } {
  if (!isUtf8(body)) return { problem: "its bytes are not UTF-8" };
  const text = body.toString();
  if (text.includes("\\u") && hasLoneSurrogateEscape(text)) {
    return { problem: "it has a \\u escape of half a surrogate pair" };
  }
  return text;
}
