/**
 * The everyday edits of openapi/openapi.yaml that `pnpm drill:spec-edits` makes in a scratch copy
 * of the repository before running the whole `pnpm test` there: each as a person makes it (the
 * value, and the prose and examples that quote it, which lint compares), plus the commands the
 * README's "Changing the API" says the edit needs. An edit that departs from the interface
 * document may fail in the interface-document test only, and nowhere else.
 */
import {
  deprecate,
  optionalProperty,
  parameterlessResource,
  type SpecEdit,
} from "@animal-store/test-support/spec-edits";
import { parse, stringify } from "yaml";

export interface EditKind {
  name: string;
  /** What a person changes, in a sentence. */
  summary: string;
  /** Whether the interface document states the value changed (its test then fails, and only it). */
  departsFromDocument: boolean;
  /** The edit of openapi.yaml's text. */
  edit(text: string): string;
  /** Commands run in the scratch copy after the edit, before `pnpm generate` and `pnpm test`. */
  commands?: string[][];
}

/** Replaces `from` (which must occur) with `to` in `text`, every occurrence. */
function swap(text: string, from: string | RegExp, to: string): string {
  const found = typeof from === "string" ? text.includes(from) : from.test(text);
  if (!found) throw new Error(`the spec no longer contains ${String(from)}: update the drill`);
  return typeof from === "string" ? text.replaceAll(from, to) : text.replace(from, to);
}

/** A structural edit of the parsed spec, written back as YAML. */
function structural(...edits: SpecEdit[]): (text: string) => string {
  return (text) => {
    const spec = parse(text);
    for (const edit of edits) edit(spec);
    return stringify(spec, { lineWidth: 0 });
  };
}

export const EDIT_KINDS: EditKind[] = [
  {
    name: "plan-numbers",
    summary: "the Free plan at 30 requests a minute (was 60)",
    departsFromDocument: true,
    edit: (text) =>
      swap(
        swap(text, /(\n {4}free:\n {6}perMinute: )60\n/, "$130\n"),
        "| Free | 60 |",
        "| Free | 30 |",
      ),
  },
  {
    name: "new-plan",
    summary: "a Starter plan, 120 a minute and 5,000 a day, between Free and Pro",
    departsFromDocument: false,
    edit: (text) =>
      swap(
        swap(
          text,
          "\n    pro:\n",
          "\n    starter:\n      perMinute: 120\n      perDay: 5000\n    pro:\n",
        ),
        "| Free | 60 | 1,000 |\n",
        "| Free | 60 | 1,000 |\n    | Starter | 120 | 5,000 |\n",
      ),
  },
  {
    name: "deprecate-list",
    summary: "listPets deprecated since 2026-06-01, with its own sunset 2031-06-01",
    departsFromDocument: false,
    edit: structural(
      deprecate("listPets", {
        since: "2026-06-01",
        sunset: "2031-06-01",
        replacement: "GET /pets/{petId}",
      }),
    ),
  },
  {
    name: "page-bounds",
    summary: "listPets' limit at most 50 (was 100), 10 by default (was 20)",
    departsFromDocument: true,
    edit: (text) =>
      [
        ["from 1 to 100", "from 1 to 50"],
        [
          "        maximum: 100\n        default: 20\n",
          "        maximum: 50\n        default: 10\n",
        ],
        ["          value: 20\n", "          value: 10\n"],
        ["          value: 100\n", "          value: 50\n"],
        ["whose maximum is 100", "whose maximum is 50"],
        ["maxItems: 100", "maxItems: 50"],
        ["limit above 100", "limit above 50"],
        ["query/limit must be <= 100", "query/limit must be <= 50"],
        ["the first 20 available", "the first 10 available"],
        ["<?limit=20&", "<?limit=10&"],
      ].reduce((acc, [from, to]) => swap(acc, from as string, to as string), text),
  },
  {
    name: "base-path",
    summary: "a new version in the path, /v2 (was /v1), with the major version it needs",
    departsFromDocument: true,
    edit: (text) => swap(text, /\/v1\b/g, "/v2"),
    commands: [["pnpm", "api-version", "major", "--message", "The API moves to /v2."]],
  },
  {
    name: "new-resource",
    summary: "a parameterless resource, GET /categories (listCategories)",
    departsFromDocument: false,
    edit: structural(parameterlessResource("/categories", "listCategories", "Category")),
  },
  {
    name: "added-property",
    summary: "an optional color on Pet and NewPet, with its storage migration",
    departsFromDocument: false,
    edit: structural(
      ...["Pet", "NewPet"].map((schema) =>
        optionalProperty(schema, "color", {
          type: "string",
          maxLength: 30,
          pattern: "^[^\\u0000-\\u001f\\u007f]*$",
          description: "The animal's color.",
        }),
      ),
    ),
    commands: [["pnpm", "migration", "add-property", "NewPet", "color"]],
  },
];
