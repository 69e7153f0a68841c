/**
 * Error example messages in the validator's words (`query/limit must be <= 100`) quote a
 * constraint of a parameter or body property; this finds the schema each names and says where a
 * quoted number or value list differs from it.
 */
import {
  follow,
  isJsonObject,
  jsonMedia,
  type Located,
  operationPath,
  type SpecOperation,
} from "@animal-store/openapi";
import { proseNumber } from "./prose-text.js";
import type { SpecReporter } from "./report.js";

/** A quoted constraint that does not hold, and why. */
export interface QuotedProblem {
  quoted: string;
  why: string;
}

const IN: Record<string, string> = {
  query: "query",
  params: "path",
  path: "path",
  header: "header",
  headers: "header",
};

/** The keyword and the value a validator phrase states (`must be <= 100` → maximum 100). */
function constraintOf(phrase: string): { keyword: string; value: unknown } | undefined {
  const bounds: [RegExp, string][] = [
    [/^must be <= (\S+)$/, "maximum"],
    [/^must be >= (\S+)$/, "minimum"],
    [/^must be < (\S+)$/, "exclusiveMaximum"],
    [/^must be > (\S+)$/, "exclusiveMinimum"],
    [/^must NOT have more than (\S+) characters$/, "maxLength"],
    [/^must NOT have fewer than (\S+) characters$/, "minLength"],
  ];
  for (const [pattern, keyword] of bounds) {
    const match = pattern.exec(phrase);
    if (match) return { keyword, value: proseNumber(String(match[1])) };
  }
  const allowed = /^must be equal to one of the allowed values: (.+)$/.exec(phrase);
  return allowed ? { keyword: "enum", value: String(allowed[1]).split(", ") } : undefined;
}

/** The schema of `operation`'s parameter `name` in `where`, with its place. */
function parameterSchema(
  facts: SpecReporter,
  operation: SpecOperation,
  where: string,
  name: string,
): Located | undefined {
  const item = ["paths", operation.path];
  const candidates = [
    [facts.spec.paths[operation.path]?.parameters, [...item, "parameters"]],
    [operation.operation.parameters, [...operationPath(operation), "parameters"]],
  ] as const;
  let found: Located | undefined;
  for (const [list, at] of candidates) {
    for (const [i, raw] of (Array.isArray(list) ? list : []).entries()) {
      const parameter = follow(facts.spec, raw, [...at, i]);
      if (parameter?.node.name === name && parameter.node.in === where) {
        found = follow(facts.spec, parameter.node.schema, [...parameter.path, "schema"]);
      }
    }
  }
  return found;
}

/** The schema of the body property `name` of `operation`, with its place. */
function bodyProperty(
  facts: SpecReporter,
  operation: SpecOperation,
  name: string,
): Located | undefined {
  const body = follow(facts.spec, operation.operation.requestBody, [
    ...operationPath(operation),
    "requestBody",
  ]);
  const media = body && jsonMedia(facts.spec, body);
  const schema = media && follow(facts.spec, media.node.schema, [...media.path, "schema"]);
  const properties = schema?.node.properties;
  return schema && isJsonObject(properties)
    ? follow(facts.spec, properties[name], [...schema.path, "properties", name])
    : undefined;
}

/** What is wrong with the constraints `message` quotes for `operation`; empty when all hold. */
export function messageConstraints(
  facts: SpecReporter,
  operation: SpecOperation,
  message: string,
): QuotedProblem[] {
  const problems: QuotedProblem[] = [];
  for (const quoted of message.split("; ")) {
    const match = /^(query|params|path|headers?|body)\/([^\s/]+) (must .+)$/.exec(quoted);
    const constraint = match && constraintOf(String(match[3]));
    if (!match || !constraint) continue;
    const [, where = "", name = ""] = match;
    const schema =
      where === "body"
        ? bodyProperty(facts, operation, name)
        : parameterSchema(facts, operation, IN[where] ?? where, name);
    if (!schema) {
      problems.push({
        quoted,
        why: `names ${where}/${name}, which ${operation.operationId} does not have`,
      });
      continue;
    }
    const stated = schema.node[constraint.keyword];
    if (JSON.stringify(stated) === JSON.stringify(constraint.value)) continue;
    problems.push({
      quoted,
      why: `is not the schema's ${constraint.keyword}, ${JSON.stringify(stated)} (${facts.at([...schema.path, constraint.keyword])})`,
    });
  }
  return problems;
}
