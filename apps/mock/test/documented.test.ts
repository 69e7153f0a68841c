// The mock's environment variables reach `pnpm dev` too (it starts the mock with them), so the
// places a developer looks say so: `pnpm dev --help` and the root README's "Development loop"
// name MOCK_STATEFUL=1 pnpm dev; and the README tells how to get a 400 example other than the
// first, which Prism answers whatever the mistake.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));
const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
const options = readFileSync(new URL("../src/options.mjs", import.meta.url), "utf8");

describe("the mock's variables, where pnpm dev is documented", () => {
  it("the mock reads MOCK_STATEFUL (what the help and README name)", () => {
    expect(options).toContain("env.MOCK_STATEFUL");
  });

  it("pnpm dev --help names MOCK_STATEFUL=1 pnpm dev", async () => {
    // What `pnpm dev --help` runs (package.json: exec node scripts/run.mjs dev).
    const { stdout } = await run(process.execPath, ["scripts/run.mjs", "dev", "--help"], {
      cwd: root,
    });
    expect(stdout).toContain("MOCK_STATEFUL=1 pnpm dev");
  }, 60_000);

  it("the README's development loop names it, and how to ask Prism for another 400", () => {
    const dev = readme.slice(readme.indexOf("## Development loop"));
    expect(dev.slice(0, dev.indexOf("\n## ", 4))).toContain("MOCK_STATEFUL=1 pnpm dev");
    expect(readme).toContain("Prefer: code=400, example=");
    expect(readme).toContain("sl-violations");
  });
});
