import { defineConfig } from "vitest/config";

// Suites start real processes and wait on real faults; every wait inside them has its own bound.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two files at a time: each starts server processes, and the machine has two cores.
    maxWorkers: 2,
  },
});
