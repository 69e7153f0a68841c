/**
 * Line numbers of the hand-written contract: where, in `openapi.yaml`, a value sits. Lint rules
 * and the interface-document test name the line a person must change (`openapi.yaml:287`), so
 * they read the YAML with its positions rather than the parsed JSON.
 */
import { relative } from "node:path";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, Scalar } from "yaml";

/** A path into the document, as JSON pointer segments (`["info", "version"]`). */
export type SpecPath = readonly (string | number)[];

/** Positions of one YAML (or JSON) source. */
export interface SourceLines {
  /** 1-based line of the value at `path` (of its key, for a map entry); of the nearest ancestor that exists. */
  lineOf(path: SpecPath): number;
  /**
   * Line of the `index`-th line (0-based) of the text at `path`: exact for a literal block (`|`),
   * where text lines are source lines; the value's own line otherwise.
   */
  lineOfText(path: SpecPath, index: number): number;
}

/** Reads `text` once and answers line questions about it. */
export function sourceLines(text: string): SourceLines {
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter, keepSourceTokens: false });
  const line = (offset: number | undefined) =>
    offset === undefined ? 1 : counter.linePos(offset).line;

  /** The deepest node along `path`, with the offset of its key (map entries) or its own start. */
  function locate(path: SpecPath): { node: Node | undefined; offset: number | undefined } {
    let node: unknown = document.contents;
    let offset = (document.contents as Node | null)?.range?.[0];
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => isScalar(item.key) && String(item.key.value) === String(segment),
        );
        if (!pair) break;
        offset = (pair.key as Node).range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node)) {
        const item = node.items[Number(segment)] as Node | undefined;
        if (!item) break;
        offset = item.range?.[0] ?? offset;
        node = item;
      } else break;
    }
    return { node: node as Node | undefined, offset };
  }

  return {
    lineOf: (path) => line(locate(path).offset),
    lineOfText(path, index) {
      const { node, offset } = locate(path);
      if (isScalar(node) && node.type === Scalar.BLOCK_LITERAL) {
        // The block's header (`|`) is on the first line; its text starts on the next one.
        return line(node.range?.[0]) + 1 + index;
      }
      return line(offset);
    },
  };
}

/** `file:line`, the file relative to the working directory when it lies under it. */
export function place(file: string, lineNumber: number): string {
  const shown = relative(process.cwd(), file);
  return `${shown.startsWith("..") ? file : shown}:${lineNumber}`;
}
