// @ts-check
// Watches the spec directory for saves. Editors save in bursts (write, rename, chmod), so events
// are debounced; the time of the first event of a burst is kept as "when the file was saved".
import { readdirSync, watch } from "node:fs";
import { join } from "node:path";

/** Directories under openapi/ that never hold the spec's own sources. */
const IGNORED_DIRS = new Set(["dist", "node_modules", "test", "released", "arazzo", ".turbo"]);
const SPEC_FILE = /\.(ya?ml|json)$/;

/**
 * Calls `onChange(files, savedAt)` after a burst of changes to YAML or JSON files in `dir` or its
 * source subdirectories settles for `debounceMs`; returns a function that stops watching.
 * @param {string} dir
 * @param {(files: string[], savedAt: number) => void} onChange
 */
export function watchSpecDir(dir, onChange, debounceMs = 40) {
  /** @type {Set<string>} */
  const files = new Set();
  let firstAt = 0;
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const fire = () => {
    const changed = [...files];
    const savedAt = firstAt;
    files.clear();
    firstAt = 0;
    onChange(changed, savedAt);
  };
  const dirs = [
    dir,
    ...readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !IGNORED_DIRS.has(entry.name))
      .map((entry) => join(dir, entry.name)),
  ];
  // Not `recursive: true`: on Linux, Node walks every subdirectory, node_modules included.
  const watchers = dirs.map((watched) =>
    watch(watched, (_event, name) => {
      if (!name || !SPEC_FILE.test(name) || name.includes(".tmp")) return;
      if (!firstAt) firstAt = performance.timeOrigin + performance.now();
      files.add(join(watched, name));
      clearTimeout(timer);
      timer = setTimeout(fire, debounceMs);
    }),
  );
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
