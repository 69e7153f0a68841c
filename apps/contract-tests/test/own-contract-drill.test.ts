// The "Bring your own contract" drill (src/own-contract-drill-cli.ts, `pnpm drill:own-contract`):
// the root README's section followed on a scratch copy of the committed repository with the
// foreign fixture contract in place of the Animal Store's, through the whole loop. It passes only
// when every step does; its output names the step that failed and the log to read.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("../dist/own-contract-drill-cli.js", import.meta.url));

function drill(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("close", (code) => resolve({ code, output }));
  });
}

// Under `pnpm drill:spec-edits` this suite runs inside an edited copy, itself a drill: the own
// contract drill runs on the repository, not on every edited copy of it.
describe.skipIf(process.env.SPEC_EDIT_DRILL !== undefined)("pnpm drill:own-contract", () => {
  it("follows the README's section on the foreign contract: every step succeeds", {
    timeout: 900_000,
  }, async () => {
    const { code, output } = await drill();
    expect(output).toMatch(/drill:own-contract: PASS in/);
    expect(output).not.toMatch(/^\s+FAIL\s/m);
    expect(code, output).toBe(0);
  });
});
