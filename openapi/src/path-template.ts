/**
 * OpenAPI path templates (`/pets/{petId}`) as patterns that capture their parameters.
 *
 * @see https://spec.openapis.org/oas/v3.1.0#path-templating
 */

/** A compiled path template: the pattern, with one capture group per parameter, in order. */
export interface PathTemplatePattern {
  pattern: RegExp;
  names: string[];
}

const PARAMETER = /\{([^{}/]+)\}/g;

function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The pattern of an OpenAPI path template. Literal text matches exactly (case-sensitive), each
 * `{name}` matches a non-empty run of characters other than `/`; a trailing slash is tolerated,
 * as Express does.
 */
export function pathTemplatePattern(template: string): PathTemplatePattern {
  const names: string[] = [];
  let source = "";
  let last = 0;
  for (const match of template.matchAll(PARAMETER)) {
    source += `${escapeLiteral(template.slice(last, match.index))}([^/]+)`;
    names.push(match[1] as string);
    last = match.index + match[0].length;
  }
  source += escapeLiteral(template.slice(last));
  return { pattern: new RegExp(`^${source.replace(/\/$/, "")}/?$`), names };
}
