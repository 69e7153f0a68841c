/**
 * `spec-facts/plan-table`: the prose of `info.description` restates the plans of
 * `info.x-rate-limit-plans` for readers (its plan table, and which plan callers without a key and
 * a custom plan's keys are counted on). Each restatement must agree with the extension; a
 * difference is reported with the prose line and the extension's line.
 */
import { isJsonObject, type JsonObject } from "@animal-store/openapi";
import {
  lineInSentence,
  proseNumber,
  proseTables,
  sentences,
  type TableRow,
} from "./prose-text.js";
import { rootRule, type SpecReporter } from "./report.js";

const DESCRIPTION = ["info", "description"];
const PLANS = ["info", "x-rate-limit-plans"];

/** The plan named `label` (any case), or undefined. */
const planNamed = (plans: JsonObject, label: string) =>
  Object.keys(plans).find((name) => name.toLowerCase() === label.toLowerCase());

/** Whether a cell says what the extension's value says (`custom` cells may explain themselves). */
function agrees(cell: string, value: unknown): boolean {
  return value === "custom" ? /^custom\b/i.test(cell) : proseNumber(cell) === value;
}

function checkRow(facts: SpecReporter, plans: JsonObject, header: string[], row: TableRow) {
  const rowAt = facts.atText(DESCRIPTION, row.line);
  const name = planNamed(plans, row.cells[0] ?? "");
  if (name === undefined) {
    facts.report(
      DESCRIPTION,
      `The plan table's row "${row.cells[0]}" (${rowAt}) names no plan of info.x-rate-limit-plans (${facts.at(PLANS)}).`,
    );
    return;
  }
  const plan = plans[name] as JsonObject;
  header.forEach((column, i) => {
    const key = /minute/i.test(column) ? "perMinute" : /day/i.test(column) ? "perDay" : undefined;
    const cell = row.cells[i] ?? "";
    if (key === undefined || agrees(cell, plan[key])) return;
    facts.report(
      DESCRIPTION,
      `The plan table says ${row.cells[0]} has "${cell}" ${column.toLowerCase()} (${rowAt}), but info.x-rate-limit-plans.${name}.${key} is ${String(plan[key])} (${facts.at([...PLANS, name, key])}).`,
    );
  });
}

/** "counted on the Business limits", "on the Free plan": the plan each such sentence names. */
function checkSentences(facts: SpecReporter, plans: JsonObject, description: string) {
  const anonymous = facts.spec.info["x-rate-limit-anonymous-plan"];
  for (const sentence of sentences(description)) {
    for (const match of sentence.raw.matchAll(/\bon the (\w+)\s+(?:plan|limits)\b/gi)) {
      const label = String(match[1]);
      const named = planNamed(plans, label);
      const at = facts.atText(DESCRIPTION, lineInSentence(sentence, match.index));
      const custom = Object.keys(plans).find(
        (name) =>
          isJsonObject(plans[name]) &&
          plans[name].defaultsTo !== undefined &&
          new RegExp(`\\b${name}\\b`, "i").test(sentence.text),
      );
      let expected: [string, string[]] | undefined;
      if (/without a (valid )?key/i.test(sentence.text)) {
        expected = [String(anonymous), ["info", "x-rate-limit-anonymous-plan"]];
      } else if (custom !== undefined) {
        expected = [
          String((plans[custom] as JsonObject).defaultsTo),
          [...PLANS, custom, "defaultsTo"],
        ];
      }
      if (named === undefined || (expected && named !== expected[0])) {
        const stated = expected
          ? `${expected[0]} (${facts.at(expected[1])})`
          : `a plan of info.x-rate-limit-plans (${facts.at(PLANS)})`;
        facts.report(
          DESCRIPTION,
          `"${sentence.text}" (${at}) names the ${label} plan, where the spec says ${stated}.`,
        );
      }
    }
  }
}

/** The rule's visitor factory. */
export const planTableRule = rootRule((facts) => {
  const plans = facts.spec.info["x-rate-limit-plans"];
  const description = String(facts.spec.info.description ?? "");
  if (!isJsonObject(plans)) return;
  for (const table of proseTables(description)) {
    if (table.header[0]?.toLowerCase() !== "plan") continue;
    for (const row of table.rows) checkRow(facts, plans, table.header, row);
    for (const name of Object.keys(plans)) {
      if (table.rows.some((row) => planNamed(plans, row.cells[0] ?? "") === name)) continue;
      facts.report(
        [...PLANS, name],
        `info.x-rate-limit-plans.${name} (${facts.at([...PLANS, name])}) has no row in the plan table of info.description (${facts.atText(DESCRIPTION, table.line)}).`,
      );
    }
  }
  checkSentences(facts, plans, description);
});
