import { defineConfig } from "vitest/config";

// The browser suites start a real Prism, a real server and Chromium; on a loaded 2-core machine
// that can take seconds. They share one machine's CPU, so they run one file at a time.
export default defineConfig({
  test: {
    hookTimeout: 90_000,
    testTimeout: 60_000,
    fileParallelism: false,
    expect: { poll: { timeout: 10_000 } },
  },
});
