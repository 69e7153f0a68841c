/**
 * `spec-facts/deprecation`: a deprecated operation's dates are stated once, in `x-deprecated-since`
 * and `x-sunset` (the bundle writes the headers from them). The rule checks that they can be read,
 * that the deprecation does not come after the sunset, that every date the prose says about the
 * operation (its texts and examples, and the sentences of `info.description` naming it) is one of
 * the two, and that no response of an operation that is not deprecated declares the headers
 * only deprecated operations are sent.
 */
import {
  follow,
  isJsonObject,
  type JsonObject,
  operationDeprecation,
  operationPath,
  type SpecOperation,
  type SpecPath,
  specOperations,
  texts,
} from "@animal-store/openapi";
import { datePart, proseDates } from "./prose-dates.js";
import { sentences } from "./prose-text.js";
import { rootRule, type SpecReporter } from "./report.js";

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The texts about `operation`: its own, its shared responses', and info's sentences naming it. */
function* textsAbout(
  facts: SpecReporter,
  operation: SpecOperation,
): Generator<[string, SpecPath, number]> {
  for (const [text, path] of texts(operation.operation, operationPath(operation))) {
    yield [text, path, 0];
  }
  const seen = new Set<string>();
  const responses = operation.operation.responses;
  for (const raw of Object.values(isJsonObject(responses) ? responses : {})) {
    const shared = isJsonObject(raw) && raw.$ref ? follow(facts.spec, raw, []) : undefined;
    if (!shared || seen.has(shared.path.join("/"))) continue;
    seen.add(shared.path.join("/"));
    for (const [text, path] of texts(shared.node, shared.path)) yield [text, path, 0];
  }
  // `GET /items` must not match a sentence about `GET /items/{itemId}`.
  const naming = new RegExp(
    `(${escaped(`${operation.method} ${operation.path}`)}|\\b${escaped(operation.operationId)})(?![\\w/{])`,
  );
  for (const sentence of sentences(String(facts.spec.info.description ?? ""))) {
    if (naming.test(sentence.raw)) yield [sentence.raw, ["info", "description"], sentence.line];
  }
}

function checkOperation(
  facts: SpecReporter,
  operation: SpecOperation,
  operations: SpecOperation[],
) {
  const at = operationPath(operation);
  try {
    operationDeprecation(facts.spec, operation, operations);
  } catch (error) {
    facts.report(at, `${(error as Error).message} (${facts.at(at)}).`);
    return;
  }
  const { operationId } = operation;
  const since = datePart(operation.operation["x-deprecated-since"]);
  const sunsetValue = operation.operation["x-sunset"];
  const sinceAt = facts.at([...at, "x-deprecated-since"]);
  if (sunsetValue === undefined) return;
  const sunset = datePart(sunsetValue);
  const sunsetAt = facts.at([...at, "x-sunset"]);
  if (
    Date.parse(String(operation.operation["x-deprecated-since"])) > Date.parse(String(sunsetValue))
  ) {
    facts.report(
      [...at, "x-deprecated-since"],
      `${operationId} is deprecated on ${since} (x-deprecated-since, ${sinceAt}), after its sunset ${sunset} (x-sunset, ${sunsetAt}): an operation is deprecated before it is removed.`,
    );
  }
  for (const [text, path, offset] of textsAbout(facts, operation)) {
    for (const found of proseDates(text)) {
      if (found.date === sunset || found.date === since) continue;
      facts.report(
        path,
        `${operationId}: "${found.written}" (${facts.atText(path, offset + found.line)}) is neither its x-sunset ${sunset} (${sunsetAt}) nor its x-deprecated-since ${since} (${sinceAt}); the dates are stated there, and the prose must agree.`,
      );
    }
  }
}

/** Responses of operations that are not deprecated must not declare Deprecation or Sunset. */
function checkUndeprecated(facts: SpecReporter, operation: SpecOperation) {
  const responses = operation.operation.responses;
  for (const [status, raw] of Object.entries(isJsonObject(responses) ? responses : {})) {
    const response = follow(facts.spec, raw, [...operationPath(operation), "responses", status]);
    const headers =
      response && isJsonObject(response.node.headers) ? (response.node.headers as JsonObject) : {};
    for (const name of Object.keys(headers)) {
      if (!["deprecation", "sunset"].includes(name.toLowerCase())) continue;
      const where = [...(response?.path ?? []), "headers", name];
      facts.report(
        where,
        `${operation.operationId} is not deprecated, yet its ${status} response declares ${name} (${facts.at(where)}): the server sends it only for operations with deprecated: true.`,
      );
    }
  }
}

/** The rule's visitor factory. */
export const deprecationRule = rootRule((facts) => {
  const operations = specOperations(facts.spec);
  for (const operation of operations) {
    // A deprecation with none of the extensions is plain OpenAPI: nothing is stated to compare.
    const stated = ["x-deprecated-since", "x-sunset", "x-replacement"].some(
      (key) => operation.operation[key] !== undefined,
    );
    if (operation.deprecated && stated) checkOperation(facts, operation, operations);
    else if (!operation.deprecated) checkUndeprecated(facts, operation);
  }
});
