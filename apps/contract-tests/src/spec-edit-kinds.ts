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
import { type Document, isMap, parseDocument } from "yaml";

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
  /**
   * Product code a person writes after the commands, by path: what "Changing the API" says the
   * edit needs that no command can write (a new operation's handler body). Never a test.
   */
  code?: Record<string, string>;
}

/** Replaces `from` (which must occur) with `to` in `text`, every occurrence. */
function swap(text: string, from: string | RegExp, to: string): string {
  const found = typeof from === "string" ? text.includes(from) : from.test(text);
  if (!found) throw new Error(`the spec no longer contains ${String(from)}: update the drill`);
  return typeof from === "string" ? text.replaceAll(from, to) : text.replace(from, to);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Writes into `doc` at `path` only what changed from `before` to `after`, key by key. */
function applyChanges(doc: Document, path: string[], before: unknown, after: unknown): void {
  if (same(before, after)) return;
  if (isObject(before) && isObject(after) && isMap(doc.getIn(path, true))) {
    for (const key of Object.keys(before)) if (!(key in after)) doc.deleteIn([...path, key]);
    for (const [key, value] of Object.entries(after)) {
      applyChanges(doc, [...path, key], before[key], value);
    }
    return;
  }
  doc.setIn(path, doc.createNode(structuredClone(after), { aliasDuplicateObjects: false }));
}

/**
 * A structural edit of the parsed spec, written back into the YAML as a person would: only the
 * nodes it changes are rewritten; the rest keeps its comments, quotes and flow lists (a test that
 * plants a text edit on the edited spec still finds its text).
 */
function structural(...edits: SpecEdit[]): (text: string) => string {
  return (text) => {
    const doc = parseDocument(text);
    const before = doc.toJS();
    const spec = structuredClone(before);
    for (const edit of edits) edit(spec);
    applyChanges(doc, [], before, spec);
    return doc.toString({ lineWidth: 0, flowCollectionPadding: false, singleQuote: true });
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
    // A narrower maximum refuses requests that passed: breaking, so a major version (the
    // breaking-change gate fails without it).
    commands: [["pnpm", "api-version", "major", "--message", "listPets pages hold at most 50."]],
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
    // The handler `pnpm scaffold` writes answers 500 not_implemented until its body is filled in.
    commands: [["pnpm", "scaffold"]],
    code: {
      "apps/server/src/handlers/list-categories.ts": [
        "/** listCategories: the categories the stored animals are filed under. */",
        'import type { HandlerFactory } from "./types.js";',
        "",
        "const PAGE = 1000;",
        "",
        "// The store keeps no category names yet: each category is the id animals carry, named after it.",
        'export const listCategories: HandlerFactory<"listCategories"> =',
        "  (store) =>",
        "  async ({ reply }) => {",
        "    const ids = new Set<number>();",
        "    for (let afterId: number | undefined; ; ) {",
        "      const pets = await store.listPets({ limit: PAGE, afterId });",
        "      for (const pet of pets) ids.add(pet.categoryId);",
        "      if (pets.length < PAGE) break;",
        "      afterId = pets.at(-1)?.id;",
        "    }",
        "    const sorted = [...ids].sort((a, b) => a - b);",
        "    return reply(",
        "      200,",
        '      sorted.map((id) => ({ id, name: ["Category", id].join(" ") })),',
        "    );",
        "  };",
        "",
      ].join("\n"),
    },
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
