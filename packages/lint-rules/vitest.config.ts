import { defineConfig } from "vitest/config";

// The lint-rule suite runs one redocly process per broken fixture: bound how many run at once
// and give each room on a loaded 2-core CI machine.
export default defineConfig({
  test: { testTimeout: 60_000, maxConcurrency: 4 },
});
