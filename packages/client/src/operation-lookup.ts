import { OPERATIONS } from "./generated/operations.js";

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
