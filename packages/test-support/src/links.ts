/**
 * `Link` header values read the way RFC 8288 writes them: one field may carry several links
 * (`<a>; rel="successor-version", <?cursor=...>; rel="next"`), so a suite looking for the next
 * page finds the link whose `rel` holds `next` among all of them, and never assumes the field
 * holds only that one. Independent of the client's own parser, which the suites test.
 */

/** One link of a `Link` field: its target as written, and its relation types (lower case). */
export interface ParsedLink {
  target: string;
  rels: string[];
  /** Every parameter as written, names lower case, quotes removed. */
  params: Record<string, string>;
}

/**
 * Every link of a `Link` field value (or of several, joined by commas), in order; `[]` for none.
 * Throws on text that is not a list of `<target>; param=value` links, so a malformed field fails
 * the test that reads it rather than reading as "no next page".
 */
export function parseLinks(value: string | null | undefined): ParsedLink[] {
  const links: ParsedLink[] = [];
  const text = value ?? "";
  let at = 0;
  const skipSpace = () => {
    while (at < text.length && /[\s]/.test(text[at] as string)) at++;
  };
  skipSpace();
  while (at < text.length) {
    if (text[at] === ",") {
      at++;
      skipSpace();
      continue;
    }
    if (text[at] !== "<") throw new Error(`not an RFC 8288 Link value at ${at}: ${text}`);
    const close = text.indexOf(">", at);
    if (close < 0) throw new Error(`unterminated link target in: ${text}`);
    const link: ParsedLink = { target: text.slice(at + 1, close), rels: [], params: {} };
    at = close + 1;
    skipSpace();
    while (text[at] === ";") {
      at++;
      skipSpace();
      const name = /^[^\s=;,]+/.exec(text.slice(at))?.[0] ?? "";
      at += name.length;
      skipSpace();
      let paramValue = "";
      if (text[at] === "=") {
        at++;
        skipSpace();
        if (text[at] === '"') {
          let end = at + 1;
          while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
          paramValue = text.slice(at + 1, end).replace(/\\(.)/g, "$1");
          at = end + 1;
        } else {
          paramValue = /^[^\s;,]*/.exec(text.slice(at))?.[0] ?? "";
          at += paramValue.length;
        }
      }
      link.params[name.toLowerCase()] ??= paramValue;
      skipSpace();
    }
    link.rels = (link.params.rel ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    links.push(link);
    skipSpace();
    if (at < text.length && text[at] !== ",") {
      throw new Error(`not an RFC 8288 Link value at ${at}: ${text}`);
    }
  }
  return links;
}

/** The links of the field whose `rel` holds `rel` (e.g. `next`). */
export function linksWithRel(value: string | null | undefined, rel: string): ParsedLink[] {
  return parseLinks(value).filter((link) => link.rels.includes(rel.toLowerCase()));
}

/**
 * The target of the field's `rel="next"` link as written (a relative reference here), or
 * undefined when it has none (the last page). Throws when the field has several next links.
 */
export function nextLinkTarget(value: string | null | undefined): string | undefined {
  const found = linksWithRel(value, "next");
  if (found.length > 1) throw new Error(`several rel="next" links in one Link field: ${value}`);
  return found[0]?.target;
}

/** The field without its `next` link(s), each link written back as `<target>; rel="..."`. */
export function linksBesidesNext(value: string | null | undefined): string[] {
  return parseLinks(value)
    .filter((link) => !link.rels.includes("next"))
    .map((link) => `<${link.target}>; rel="${link.rels.join(" ")}"`);
}
