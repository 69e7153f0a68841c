/**
 * Reading the prose of `info.description`: its Markdown tables (row by row, with the text line of
 * each row) and its sentences (with the text line each starts on), so a rule can compare what the
 * prose says with the value the spec states and name the line of each.
 */

/** One body row of a Markdown table: its cells (trimmed, backticks removed) and text line. */
export interface TableRow {
  cells: string[];
  line: number;
}

/** A Markdown table: its header cells, its body rows, and the text line of its header. */
export interface ProseTable {
  header: string[];
  rows: TableRow[];
  line: number;
}

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim().replace(/`/g, ""));

/** Every table of `text` (a header row, a `---` row, then body rows). */
export function proseTables(text: string): ProseTable[] {
  const lines = text.split("\n");
  const tables: ProseTable[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const isRow = (n: number) => lines[n]?.trim().startsWith("|") === true;
    if (!isRow(i) || !/^\|?[\s:|-]+$/.test(lines[i + 1]?.trim() ?? "") || !isRow(i + 1)) continue;
    const table: ProseTable = { header: cellsOf(lines[i] ?? ""), rows: [], line: i };
    let n = i + 2;
    for (; isRow(n); n++) table.rows.push({ cells: cellsOf(lines[n] ?? ""), line: n });
    tables.push(table);
    i = n;
  }
  return tables;
}

/** One sentence of a text: as written, whitespace collapsed, and the text line it starts on. */
export interface Sentence {
  raw: string;
  text: string;
  line: number;
}

/** The text line of `index` (an offset into `sentence.raw`). */
export function lineInSentence(sentence: Sentence, index: number): number {
  return sentence.line + sentence.raw.slice(0, index).split("\n").length - 1;
}

/** The sentences of `text`'s paragraphs (tables and headings left out). */
export function sentences(text: string): Sentence[] {
  const found: Sentence[] = [];
  const lineAt = (offset: number) => text.slice(0, offset).split("\n").length - 1;
  let offset = 0;
  for (const paragraph of text.split("\n\n")) {
    if (!paragraph.split("\n").some((line) => /^\s*[|#]/.test(line))) {
      let begin = 0;
      for (const boundary of paragraph.matchAll(/(?<=[.!?])\s+(?=[A-Z`*])/g)) {
        const raw = paragraph.slice(begin, boundary.index);
        found.push({ raw, text: raw.replace(/\s+/g, " ").trim(), line: lineAt(offset + begin) });
        begin = boundary.index + boundary[0].length;
      }
      const raw = paragraph.slice(begin);
      const text = raw.replace(/\s+/g, " ").trim();
      if (text) found.push({ raw, text, line: lineAt(offset + begin) });
    }
    offset += paragraph.length + 2;
  }
  return found;
}

/** A number as prose writes it (`1,000`, `16384`), or undefined for anything else. */
export function proseNumber(text: string): number | undefined {
  const match = /^\d[\d,]*$/.exec(text.trim());
  return match ? Number(text.replace(/,/g, "")) : undefined;
}
