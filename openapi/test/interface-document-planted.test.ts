// The interface-document test on planted edits of openapi.yaml (a scratch copy, through
// INTERFACE_TEST_SPEC): each edit departing from the document fails exactly one of its tests,
// with one message quoting the document and naming the spec's line, and that line holds the edit.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { original } from "./lint.js";

const run = promisify(execFile);
const here = new URL("..", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "animal-store-interface-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Outcome {
  failed: { title: string; messages: string[] }[];
  passed: number;
}

/** Runs the interface-document test on `source`; which of its tests failed, and how. */
async function interfaceTest(name: string, source: string): Promise<Outcome> {
  const dir = mkdtempSync(join(scratch, `${name}-`));
  const spec = join(dir, "openapi.yaml");
  const report = join(dir, "report.json");
  writeFileSync(spec, source);
  const args = [
    "run",
    "test/interface-document.test.ts",
    "--reporter=json",
    `--outputFile=${report}`,
  ];
  await run(join(here, "node_modules/.bin/vitest"), args, {
    cwd: here,
    env: { ...process.env, INTERFACE_TEST_SPEC: spec },
  }).catch(() => undefined);
  const results = JSON.parse(readFileSync(report, "utf8")).testResults[0].assertionResults as {
    title: string;
    status: string;
    failureMessages: string[];
  }[];
  return {
    failed: results
      .filter((r) => r.status === "failed")
      .map((r) => ({ title: r.title, messages: r.failureMessages })),
    passed: results.filter((r) => r.status === "passed").length,
  };
}

const edits: [edit: string, from: RegExp, to: string, statement: string, line: string][] = [
  [
    "the Free plan at 30 a minute",
    /perMinute: 60\n/,
    "perMinute: 30\n",
    "| Free | 60 | 1000 |",
    "perMinute: 30",
  ],
  ["limit at most 50", /maximum: 100\n/, "maximum: 50\n", "maximum 100", "maximum: 50"],
  [
    "the API under /v2",
    /\/v1\n/g,
    "/v2\n",
    "end with the path segment /v1",
    "url: https://{host}/v2",
  ],
  [
    "getPet's sunset a year later",
    /x-sunset: '2030-12-05'/,
    "x-sunset: '2031-12-05'",
    "removed on 5 December 2030",
    "x-sunset: '2031-12-05'",
  ],
  [
    "a fourth PetStatus",
    /enum: \[available, pending, sold\]/,
    "enum: [available, pending, sold, lost]",
    "exactly: available, pending, sold",
    "enum: [available, pending, sold, lost]",
  ],
];

describe("the interface-document test on planted edits", () => {
  it.concurrent("passes every test on the real spec", async () => {
    const outcome = await interfaceTest("real", original);
    expect(outcome.failed).toEqual([]);
    expect(outcome.passed).toBeGreaterThan(10);
  });

  it.concurrent.each(edits)(
    "fails once on %s, quoting the document and naming the line",
    async (edit, from, to, statement, line) => {
      const source = original.replace(from, to);
      expect(source).not.toBe(original);
      const { failed } = await interfaceTest(edit.replace(/\W+/g, "-"), source);
      expect(failed, JSON.stringify(failed, null, 2)).toHaveLength(1);
      const message = failed[0]?.messages.join("\n") ?? "";
      expect(message).toContain(statement);
      const named = /openapi\.yaml:(\d+)/.exec(message)?.[1];
      expect(source.split("\n")[Number(named) - 1], message).toContain(line);
    },
  );
});
