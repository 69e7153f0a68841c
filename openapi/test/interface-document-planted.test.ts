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
    /x-sunset: '?2030-12-05'?(?=\n)/,
    "x-sunset: '2031-12-05'",
    "removed on 5 December 2030",
    "x-sunset: '2031-12-05'",
  ],
  [
    "a fourth PetStatus",
    // In flow style as written, or in block style as a structural edit rewrites the file.
    /enum: \[available, pending, sold\]|enum:\n\s+- available\n\s+- pending\n\s+- sold(?=\n)/,
    "enum: [available, pending, sold, lost]",
    "exactly: available, pending, sold",
    "enum: [available, pending, sold, lost]",
  ],
];

/** The failures on the real spec: none while it agrees with the document. */
const real = interfaceTest("real", original);

describe("the interface-document test on planted edits", () => {
  it.concurrent("on the real spec, fails only with one message per departure, quoting the document and naming the line", async () => {
    // While the spec agrees with the document this is "passes every test". Once an edit departs
    // from it (the spec-edit drill makes such edits), the interface-document test is the one
    // test file that fails, and each of its failures must still be one message naming a line.
    const { failed, passed } = await real;
    expect(passed + failed.length).toBeGreaterThan(10);
    for (const { title, messages } of failed) {
      expect(messages, title).toHaveLength(1);
      expect(messages[0], title).toMatch(/the interface document says/i);
      expect(messages[0], title).toMatch(/openapi\.yaml:\d+/);
    }
  });

  it.concurrent.each(edits)(
    "fails once more on %s, quoting the document and naming the line",
    async (edit, from, to, statement, line) => {
      const before = await real;
      const source = original.replace(from, to);
      if (source === original) {
        // The real spec already departs from the document at this place (the pattern of the
        // document's value is gone): its failure is the one this edit would have planted.
        const message = before.failed.flatMap((f) => f.messages).find((m) => m.includes(statement));
        expect(
          message,
          `the real spec no longer matches ${from} but no failure quotes "${statement}"`,
        ).toBeDefined();
        return;
      }
      const { failed } = await interfaceTest(edit.replace(/\W+/g, "-"), source);
      const added = failed.filter((f) => !before.failed.some((b) => b.title === f.title));
      expect(added, JSON.stringify(failed, null, 2)).toHaveLength(1);
      const message = added[0]?.messages.join("\n") ?? "";
      expect(message).toContain(statement);
      const named = /openapi\.yaml:(\d+)/.exec(message)?.[1];
      expect(source.split("\n")[Number(named) - 1], message).toContain(line);
    },
  );
});
