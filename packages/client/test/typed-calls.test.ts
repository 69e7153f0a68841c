// Proves that each `@ts-expect-error` in typed-calls.ts marks a real compile error: the file is
// compiled once as it is (no errors) and once with the markers removed (an error on every line).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const file = fileURLToPath(new URL("./typed-calls.ts", import.meta.url));
const tsconfig = fileURLToPath(new URL("../tsconfig.json", import.meta.url));
const MARKER = "// @ts-expect-error";

function compilerOptions(): ts.CompilerOptions {
  const config = ts.getParsedCommandLineOfConfigFile(
    tsconfig,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("tsconfig.json could not be read");
  return { ...config.options, noEmit: true };
}

/** Type errors of `source` compiled in place of typed-calls.ts, as 0-based line numbers. */
function errorLines(source: string, oldProgram?: ts.Program) {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (name === file ? source : readFile(name));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, target, ...rest) =>
    name === file
      ? ts.createSourceFile(name, source, target)
      : getSourceFile(name, target, ...rest);
  const program = ts.createProgram({ rootNames: [file], options, host, oldProgram });
  const sourceFile = program.getSourceFile(file);
  const diagnostics = sourceFile ? ts.getPreEmitDiagnostics(program, sourceFile) : [];
  const lines = diagnostics.map((d) =>
    d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1,
  );
  return { program, lines, messages: diagnostics.map((d) => d.messageText) };
}

describe("typed calls", () => {
  let firstProgram: ts.Program | undefined;
  const original = readFileSync(file, "utf8");
  const markedLines = original
    .split("\n")
    .flatMap((line, i) => (line.trim().startsWith(MARKER) ? [i + 1] : []));

  it("compile as written", () => {
    expect(markedLines.length).toBeGreaterThanOrEqual(15);
    const { messages, program } = errorLines(original);
    firstProgram = program;
    expect(messages).toEqual([]);
  }, 60_000);

  it("fail on every line marked @ts-expect-error once the marker is gone", () => {
    const stripped = original
      .split("\n")
      .map((line) => (line.trim().startsWith(MARKER) ? "" : line))
      .join("\n");
    const { lines } = errorLines(stripped, firstProgram);
    const failing = new Set(lines);
    expect(markedLines.filter((line) => !failing.has(line))).toEqual([]);
    expect(lines.every((line) => markedLines.includes(line))).toBe(true);
  }, 60_000);
});
