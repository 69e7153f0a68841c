import { defineConfig } from "vitest/config";

// Each suite starts a real Prism; on a loaded 2-core CI machine that can take seconds.
export default defineConfig({
  test: { hookTimeout: 60_000, testTimeout: 30_000 },
});
