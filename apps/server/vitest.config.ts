import { defineConfig } from "vitest/config";

// The suites start real servers, child processes and databases; on a loaded 2-core machine one
// test can take seconds longer than vitest's 5 s default without anything being wrong. A hang
// still fails, just later.
export default defineConfig({
  test: { hookTimeout: 60_000, testTimeout: 30_000 },
});
