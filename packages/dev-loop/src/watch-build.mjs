// @ts-check
// Watches a service's code (the server's build output, the mock's sources): `pnpm build` rewrites
// dist/ file by file, so changes are debounced until the writes settle.
import { existsSync, watch } from "node:fs";

/**
 * Calls `onChange()` once a burst of changes anywhere under `dirs` has been quiet for
 * `debounceMs`; returns a function that stops watching. Directories that do not exist are skipped.
 * @param {string[]} dirs
 * @param {() => void} onChange
 */
export function watchBuildDirs(dirs, onChange, debounceMs = 400) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const watchers = dirs
    .filter((dir) => existsSync(dir))
    .map((dir) =>
      // Recursive: a build writes into nested folders (dist/store/...); no node_modules here.
      watch(dir, { recursive: true }, () => {
        clearTimeout(timer);
        timer = setTimeout(onChange, debounceMs);
      }),
    );
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
