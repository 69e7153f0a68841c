/**
 * The root README's "Deploying" section, followed as written: its shell blocks run in order in one
 * bash (errexit, pipefail), with three substitutions so it can run beside other suites: free ports
 * for 8080 (PORT) and 9464 (METRICS_PORT), and a temporary folder for /srv/animal-store. Every
 * `curl -sf` in it fails the run on an error status, and so does the server's exit code.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { basePathOf, loadBundledSpec } from "@animal-store/openapi";
import { freePort } from "@animal-store/test-support/free-port";
import { turboHashedEnv } from "@animal-store/test-support/turbo-env";
import { afterAll, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

/** The sh blocks of the README section `heading`, in order. */
function shellBlocks(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`no "${heading}" in the README`);
  const next = markdown.indexOf("\n## ", start + heading.length + 2);
  const section = markdown.slice(start, next === -1 ? undefined : next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

const scratch = mkdtempSync(join(tmpdir(), "animal-store-readme-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Runs `script` with bash -euo pipefail in a minimal environment. A step that fails stops the
 * script before its own `kill` of the server it started in the background, so the script stops
 * its background jobs however it ends (a failing run once left the server listening).
 */
function runScript(
  script: string,
  extra: Record<string, string> = {},
): Promise<{ code: number; output: string }> {
  const stopJobs = `trap 'jobs -p | xargs -r kill -TERM 2>/dev/null || true' EXIT\n`;
  return new Promise((resolve) => {
    execFile(
      "bash",
      ["-euo", "pipefail", "-c", stopJobs + script],
      {
        cwd: REPO,
        timeout: 280_000,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? scratch,
          // So `pnpm artifact` finds this run's builds instead of rewriting them under the
          // suites running beside this one (test-support/turbo-env).
          ...turboHashedEnv(),
          ...extra,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

it("a Deploying script that fails part-way leaves nothing it started running", async () => {
  const marker = `readme-deploying-${process.pid}-${Date.now()}`;
  const { code } = await runScript(
    `(exec -a ${marker} sleep 300) &\nSERVER=$!\nfalse\nkill $SERVER`,
  );
  expect(code).not.toBe(0);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const left = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    });
  expect(left).toEqual([]);
});

it("runs the README's Deploying commands as written", { timeout: 300_000 }, async () => {
  const blocks = shellBlocks(readFileSync(`${REPO}README.md`, "utf8"), "## Deploying");
  expect(blocks.length).toBeGreaterThan(0);
  const [port, metricsPort] = [await freePort(), await freePort()];
  // The README's calls name the API's base path as text; they run on the spec's (after a new
  // version in the path the README's text is stale until it changes, but the deployment is what
  // this test proves).
  const written = blocks.join("\n");
  const readmeBase = /:8080(\/[^\s"'/]+)\//.exec(written)?.[1];
  expect(readmeBase, "the Deploying commands call the API on :8080").toBeDefined();
  const script = written
    .replaceAll(`:8080${readmeBase}/`, `:8080${basePathOf(loadBundledSpec().spec)}/`)
    .replaceAll("/srv/animal-store", `${scratch}/animal-store`)
    .replaceAll(":8080", `:${port}`)
    .replaceAll(":9464", `:${metricsPort}`);
  const { code, output } = await runScript(script, {
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
  });
  expect(code, output).toBe(0);
  expect(output).toMatch(/"status":"ready"/);
  expect(output).toMatch(
    /http_server_requests_total\{operation_id="listPets",method="GET",status="200"\} 1$/m,
  );
  expect(output).toMatch(/backed up .* to .*backups\/animal-store\.db/);
});
