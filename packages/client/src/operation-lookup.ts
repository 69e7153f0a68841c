import { OPERATIONS, type OperationEntry } from "./generated/operations.js";

interface OperationMatcher {
  readonly entry: OperationEntry;
  readonly pattern: RegExp;
}

let matchers: readonly OperationMatcher[] | undefined;

/** Turns "/pets/{petId}" into /^\/pets\/[^/]+$/ once, on first use (most clients never need it). */
function operationMatchers(): readonly OperationMatcher[] {
  matchers ??= OPERATIONS.map((entry) => {
    const source = entry.path
      .split(/\{[^{}]+\}/)
      .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
      .join("[^/]+");
    return { entry, pattern: new RegExp(`^${source}$`) };
  });
  return matchers;
}

/** The path part of a base URL without its trailing slash ("http://h/v1/" → "/v1"; "" for none). */
export function basePathOf(baseUrl: string): string {
  return new URL(baseUrl, "http://relative.invalid").pathname.replace(/\/+$/, "");
}

/** Names the operation of a request: the spec's operationId, or "METHOD /path" for other paths. */
export function operationOf(method: string, url: string, basePath: string): string {
  const pathname = new URL(url).pathname;
  const path = pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : pathname;
  for (const { entry, pattern } of operationMatchers()) {
    if (entry.method === method && pattern.test(path)) return entry.operationId;
  }
  return `${method} ${path}`;
}

let byTemplate: ReadonlyMap<string, string> | undefined;

/**
 * Names a call from its method and path template as written in the call (`GET`, `/pets/{petId}`):
 * the spec's operationId, or "METHOD /template" for one the spec does not list.
 */
export function operationIdOf(method: string, template: string): string {
  byTemplate ??= new Map(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op.operationId]));
  const key = `${method} ${template}`;
  return byTemplate.get(key) ?? key;
}
