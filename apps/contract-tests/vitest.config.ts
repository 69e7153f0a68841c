import { defineConfig } from "vitest/config";

// The gates spawn Prism, Redocly and servers; on a busy 2-core CI machine a single step can take
// seconds. Generous limits keep them from timing out; none of them measures speed.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
