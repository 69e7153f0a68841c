/**
 * `spec-facts/quoted-values`: numbers the prose and the error examples quote from elsewhere in the
 * spec must be the spec's. An example message quoting a constraint (`query/limit must be <= 100`)
 * agrees with the schema it names; a text about the body's size agrees with
 * `info.x-request-body-limit-bytes`; a text about the ban agrees with `info.x-rate-limit-ban`; one
 * saying which path every address ends with agrees with the servers; a
 * description saying "from 1 to 100" or "1 to 100 characters" agrees with its own schema's bounds.
 * Each difference names the text's line and the value's line.
 */
import {
  basePathOf,
  follow,
  isJsonObject,
  type JsonObject,
  responseExamples,
  type SpecPath,
  specOperations,
} from "@animal-store/openapi";
import { proseNumber } from "./prose-text.js";
import { messageConstraints } from "./quoted-constraints.js";
import { rootRule, type SpecReporter } from "./report.js";

/** A phrase that quotes a value the spec states in one place. */
interface Quote {
  pattern: RegExp;
  /** Only sentences (or lines) matching this quote the value. */
  about: RegExp;
  path: SpecPath;
  /** The value the phrase's number stands for. */
  value(number: number, unit: string): number;
}

const QUOTES: Quote[] = [
  {
    pattern: /(\d[\d,]*)\s*(KiB|bytes)\b/g,
    about: /\bbody\b/i,
    path: ["info", "x-request-body-limit-bytes"],
    value: (n, unit) => (unit === "KiB" ? n * 1024 : n),
  },
  {
    pattern: /banned for (\d[\d,]*) (seconds)/g,
    about: /./,
    path: ["info", "x-rate-limit-ban", "banSeconds"],
    value: (n) => n,
  },
  {
    pattern: /(\d[\d,]*) more (requests)/g,
    about: /\bban/i,
    path: ["info", "x-rate-limit-ban", "rejectedRequestsBeforeBan"],
    value: (n) => n,
  },
];

const valueAt = (root: unknown, path: SpecPath) =>
  path.reduce<unknown>((node, key) => (isJsonObject(node) ? node[key] : undefined), root);

/** The paragraph around each line of `text` (a table row stands alone), for `Quote.about`. */
function contexts(lines: string[]): string[] {
  const paragraphs: string[] = [];
  let start = 0;
  lines.forEach((line, i) => {
    if (line.trim() !== "" && i + 1 < lines.length) return;
    const paragraph = lines.slice(start, i + 1).join(" ");
    for (let n = start; n <= i; n++) {
      paragraphs[n] = lines[n]?.trim().startsWith("|") ? (lines[n] ?? "") : paragraph;
    }
    start = i + 1;
  });
  return paragraphs;
}

function checkQuotes(facts: SpecReporter, text: string, path: SpecPath) {
  const lines = text.split("\n");
  const around = contexts(lines);
  lines.forEach((line, index) => {
    for (const quote of QUOTES) {
      if (!quote.about.test(around[index] ?? line)) continue;
      const stated = valueAt(facts.spec, quote.path);
      for (const [written, number, unit] of line.matchAll(quote.pattern)) {
        const said = quote.value(proseNumber(String(number)) ?? Number.NaN, String(unit));
        if (stated === undefined || said === stated) continue;
        facts.report(
          path,
          `"${written}" (${facts.atText(path, index)}) is not ${quote.path.join(".")}, ${String(stated)} (${facts.at(quote.path)}).`,
        );
      }
    }
  });
}

/** "every address ends with `/v1`": the base path the servers give. */
function checkBasePath(facts: SpecReporter, text: string, path: SpecPath) {
  text.split("\n").forEach((line, index) => {
    for (const [written, said] of line.matchAll(/\bends? with `(\/[\w.~-]*)`/g)) {
      const stated = basePathOf(facts.spec);
      if (said === stated) continue;
      facts.report(
        path,
        `"${written}" (${facts.atText(path, index)}) is not the base path of the servers, ${stated || "none"} (${facts.at(["servers", 0, "url"])}).`,
      );
    }
  });
}

/** "from 1 to 100" and "1 to 100 characters" in a description, against its own schema. */
function checkOwnBounds(facts: SpecReporter, holder: JsonObject, path: SpecPath) {
  const text = String(holder.description);
  const schema = isJsonObject(holder.schema)
    ? follow(facts.spec, holder.schema, [...path, "schema"])
    : { node: holder, path };
  if (!schema) return;
  const ranges: [RegExp, string, string][] = [
    [/\bfrom (\d[\d,]*) to (\d[\d,]*)\b/, "minimum", "maximum"],
    [/\b(\d[\d,]*) to (\d[\d,]*) characters\b/, "minLength", "maxLength"],
  ];
  for (const [pattern, low, high] of ranges) {
    const match = pattern.exec(text);
    if (!match) continue;
    for (const [said, keyword] of [
      [match[1], low],
      [match[2], high],
    ] as const) {
      const stated = schema.node[keyword];
      if (stated === undefined || proseNumber(String(said)) === stated) continue;
      facts.report(
        [...path, "description"],
        `"${match[0]}" (${facts.atText([...path, "description"], lineOf(text, match.index))}) is not its schema's ${keyword}, ${String(stated)} (${facts.at([...schema.path, keyword])}).`,
      );
    }
  }
}

/** The index of the line of `text` that holds `offset`. */
function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length - 1;
}

/** Every object with a description, anywhere in the document (not following `$ref`s). */
function* described(node: unknown, path: SpecPath): Generator<[JsonObject, SpecPath]> {
  if (Array.isArray(node))
    for (const [i, item] of node.entries()) yield* described(item, [...path, i]);
  if (!isJsonObject(node)) return;
  if (typeof node.description === "string") yield [node, path];
  for (const [key, value] of Object.entries(node)) yield* described(value, [...path, key]);
}

/** The rule's visitor factory. */
export const quotedValuesRule = rootRule((facts) => {
  for (const [holder, path] of described(facts.spec, [])) {
    checkQuotes(facts, String(holder.description), [...path, "description"]);
    checkBasePath(facts, String(holder.description), [...path, "description"]);
    if (path.length > 0) checkOwnBounds(facts, holder, path);
  }
  const seen = new Set<string>();
  for (const operation of specOperations(facts.spec)) {
    for (const example of responseExamples(facts.spec, operation)) {
      if (!/^4/.test(example.status) || !isJsonObject(example.node)) continue;
      const path = [...example.path, "message"];
      if (typeof example.node.message !== "string") continue;
      if (!seen.has(path.join("/"))) checkQuotes(facts, example.node.message, path);
      seen.add(path.join("/"));
      for (const problem of messageConstraints(facts, operation, example.node.message)) {
        facts.report(
          path,
          `${operation.operationId}: "${problem.quoted}" (${facts.at(path)}) ${problem.why}.`,
        );
      }
    }
  }
});
