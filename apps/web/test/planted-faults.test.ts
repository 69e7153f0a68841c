// The browser suite must fail when what it guards breaks. Each planted fault (support/planted-
// faults.ts) runs one test of the real-server suite in a child vitest: a client that does not wait
// out Retry-After, a server that does not allow the page's origin, and a CORS answer that hides
// the exposed headers. The same tests pass in the normal run (server-app.test.ts).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { useService } from "@animal-store/test-support";
import { describe, expect, it } from "vitest";
import type { Fault } from "./support/planted-faults.js";

const chromium = await useService("chromium", "planted faults of the web app's browser suite");
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const VITEST = join(
  dirname(createRequire(import.meta.url).resolve("vitest/package.json")),
  "vitest.mjs",
);
const CREATE = "create → appears in the filtered list → open → deprecation notice";
const LIMITED = "a Free key past its limit shows the Retry-After countdown, waits it out, recovers";

/** Runs one test of the real-server suite with `fault` planted; resolves with its exit and output. */
function runWithFault(
  fault: Fault,
  test: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [VITEST, "run", "test/server-app.test.ts", "-t", test], {
      cwd: ROOT,
      env: { ...process.env, WEB_TEST_FAULT: fault, NO_COLOR: "1" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe.skipIf(!chromium.available)("the browser suite fails on planted faults", () => {
  it.each([
    ["client-ignores-retry-after", LIMITED],
    ["cors-origin-missing", CREATE],
    ["cors-headers-hidden", CREATE],
  ] as const)("%s fails “%s”", { timeout: 120_000 }, async (fault, test) => {
    const { code, output } = await runWithFault(fault, test);
    expect(code, output).toBe(1);
    expect(output).toContain(`× ${test}`);
    expect(output).toMatch(/Tests {2}1 failed \| \d+ skipped/);
  });
});
