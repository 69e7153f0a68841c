/**
 * What a rule of the `spec-facts` plugin sees of Redocly (the parts of its visitor context it
 * uses), and one reporter per rule run that names places as `openapi.yaml:LINE`. Redocly's own
 * output shows only the first location of a problem, so a fact stated in two places is reported
 * with both places written into the message.
 */
import {
  type OpenApiDocument,
  place,
  type SourceLines,
  type SpecPath,
  sourceLines,
} from "@animal-store/openapi";

/** A document Redocly read: its file and text. */
export interface RedoclySource {
  absoluteRef: string;
  body: string;
}

/** A place in a document, as Redocly passes it to rules. */
export interface RedoclyLocation {
  source: RedoclySource;
  child(path: SpecPath | string | number): RedoclyLocation;
}

/** The context Redocly gives a rule's visitor. */
export interface RuleContext {
  location: RedoclyLocation;
  report(problem: { message: string; location?: RedoclyLocation }): void;
}

/** A rule's handle on the document it checks. */
export interface SpecReporter {
  spec: OpenApiDocument;
  /** `openapi.yaml:LINE` of the value at `path`. */
  at(path: SpecPath): string;
  /** `openapi.yaml:LINE` of the `index`-th line of the text at `path`. */
  atText(path: SpecPath, index: number): string;
  /** Reports `message` at `path`. */
  report(path: SpecPath, message: string): void;
}

const linesBySource = new WeakMap<RedoclySource, SourceLines>();

/** The reporter for a rule visiting the document `root` (a Root visitor's arguments). */
export function reporter(root: unknown, ctx: RuleContext): SpecReporter {
  const { source } = ctx.location;
  let lines = linesBySource.get(source);
  if (!lines) {
    lines = sourceLines(source.body);
    linesBySource.set(source, lines);
  }
  const known = lines;
  return {
    spec: root as OpenApiDocument,
    at: (path) => place(source.absoluteRef, known.lineOf(path)),
    atText: (path, index) => place(source.absoluteRef, known.lineOfText(path, index)),
    report: (path, message) =>
      ctx.report({ message, location: ctx.location.child([...existing(root, path)]) }),
  };
}

/** The longest start of `path` that exists in `root` (Redocly cannot point at a missing key). */
function existing(root: unknown, path: SpecPath): SpecPath {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    if (typeof node !== "object" || node === null || !(String(path[i]) in node)) {
      return path.slice(0, i);
    }
    node = (node as Record<string, unknown>)[String(path[i])];
  }
  return path;
}

/**
 * A Root visitor running `check` once on the whole document. A document too broken to read (an
 * operation without operationId, a `$ref` to nowhere) is reported as such: the rules of the
 * recommended set name the cause.
 */
export function rootRule<Options extends object = Record<string, unknown>>(
  check: (facts: SpecReporter, options: Partial<Options>) => void,
) {
  return (options: Partial<Options> = {}) => ({
    Root: {
      enter(root: unknown, ctx: RuleContext) {
        const facts = reporter(root, ctx);
        try {
          check(facts, options ?? {});
        } catch (error) {
          facts.report([], `the spec could not be read for this rule: ${(error as Error).message}`);
        }
      },
    },
  });
}
