/** Reading a `pnpm test --continue` log of the spec-edit drill. */

/** The test files vitest reports failing, and the turbo tasks that failed, from the log. */
export function failures(colored: string): { files: string[]; tasks: string[] } {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes, stripped.
  const log = colored.replace(/\u001b\[[0-9;]*m/g, "");
  const files = new Set<string>();
  for (const match of log.matchAll(/FAIL\s+(\S+\.test\.tsx?)/g)) files.add(match[1] as string);
  const tasks = new Set<string>();
  // turbo's summary: `Failed:    @animal-store/a#test, @animal-store/b#test`.
  for (const line of log.match(/^\s*Failed:.*$/gm) ?? []) {
    for (const task of line.matchAll(/@animal-store\/[\w-]+#[\w:-]+/g)) tasks.add(task[0]);
  }
  return { files: [...files], tasks: [...tasks] };
}
