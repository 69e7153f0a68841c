// The generic lint layer (redocly.yaml of this package) over a foreign fixture contract
// (packages/test-support/fixtures/contracts/): the clean contract gets no error; a planted real
// defect is named with its line; the rules that follow from declarations apply only once the
// contract declares what they read.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";

const run = promisify(execFile);
const here = fileURLToPath(new URL("..", import.meta.url));
const redocly = join(here, "node_modules/.bin/redocly");
const generic = join(here, "redocly.yaml");
const fixtures = join(here, "../test-support/fixtures/contracts");
const fixture = readFileSync(join(fixtures, "harbour-ferries.yaml"), "utf8");
const scratch = mkdtempSync(join(tmpdir(), "generic-lint-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Problem {
  line: number;
  severity: string;
  rule: string;
  message: string;
}

/** Lints `source` as contract.yaml with the generic layer (plus `rules` on top); its problems. */
async function lint(name: string, source: string, rules = ""): Promise<Problem[]> {
  const dir = mkdtempSync(join(scratch, `${name}-`));
  writeFileSync(join(dir, "contract.yaml"), source);
  writeFileSync(
    join(dir, "redocly.yaml"),
    `extends:\n  - ${JSON.stringify(generic)}\n${rules ? `rules:\n${rules}` : ""}`,
  );
  let output: string;
  try {
    const { stdout, stderr } = await run(redocly, ["lint", "contract.yaml", "--format=stylish"], {
      cwd: dir,
      env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
    });
    output = stdout + stderr;
  } catch (error) {
    const failed = error as { stdout: string; stderr: string };
    output = failed.stdout + failed.stderr;
  }
  return [...output.matchAll(/^\s+(\d+):\d+\s+(error|warning)\s+(\S+)\s+(.*)$/gm)].map(
    ([, line, severity, rule, message]) => ({
      line: Number(line),
      severity: String(severity),
      rule: String(rule),
      message: String(message),
    }),
  );
}

const errors = (problems: Problem[]) => problems.filter((p) => p.severity === "error");
/** The 1-based line of the first occurrence of `needle` in `text`. */
const lineOf = (text: string, needle: string) =>
  text.slice(0, text.indexOf(needle)).split("\n").length;

describe("the generic lint layer over a foreign contract", { timeout: 60_000 }, () => {
  it.each(["harbour-ferries.yaml", "library-loans.yaml"])(
    "gives the clean contract %s no error",
    async (name) => {
      const source = readFileSync(join(fixtures, name), "utf8");
      expect(errors(await lint(name.replace(".yaml", ""), source))).toEqual([]);
    },
  );

  it("names a uuid example that is not a uuid, at its line", async () => {
    const planted = fixture.replace(
      "        example: efdbb9d1-02c2-4bc3-afb7-6788d8782b1e\n    get:",
      "        example: not-a-uuid\n    get:",
    );
    expect(planted).not.toBe(fixture);
    const found = errors(await lint("uuid", planted));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      line: lineOf(planted, "example: not-a-uuid"),
      rule: "no-invalid-parameter-examples",
    });
  });

  it("names a response example that breaks its schema, at its line", async () => {
    const planted = fixture.replace(
      "                  country: NO\n",
      "                  country: Norway\n",
    );
    expect(planted).not.toBe(fixture);
    const found = errors(await lint("country", planted));
    expect(found.map((p) => p.rule)).toEqual(["no-invalid-media-type-examples"]);
    expect(found[0]?.line).toBe(lineOf(planted, "country: Norway"));
  });

  it("requires 429 and the X-RateLimit-* headers once the contract declares plans", async () => {
    const spec = parse(fixture);
    spec.info["x-rate-limit-plans"] = { basic: { perMinute: 60, perDay: 1000 } };
    const found = errors(await lint("plans", stringify(spec, { lineWidth: 0 })));
    const statuses = found.filter((p) => p.rule === "spec-facts/server-statuses");
    expect(statuses).toHaveLength(9);
    expect(statuses[0]?.message).toMatch(/^get-stations \(contract\.yaml:\d+\) must declare a 429/);
    expect(found.some((p) => p.rule === "spec-facts/rate-limit-headers")).toBe(true);
    expect(found.filter((p) => !p.rule.startsWith("spec-facts/"))).toEqual([]);
  });

  it("checks stored strings only where the application's configuration names them", async () => {
    const found = errors(
      await lint(
        "stored",
        fixture,
        "  spec-facts/stored-strings:\n    severity: error\n    stores: [New-Booking]\n",
      ),
    );
    expect(found.map((p) => p.rule)).toEqual([
      "spec-facts/stored-strings",
      "spec-facts/stored-strings",
      "spec-facts/stored-strings",
    ]);
    expect(found[0]?.message).toMatch(/^New-Booking\.station-from \(contract\.yaml:\d+\)/);
  });

  it("takes a deprecation without the extensions as plain OpenAPI", async () => {
    const spec = parse(fixture);
    spec.paths["/stations"].get.deprecated = true;
    expect(errors(await lint("deprecated", stringify(spec, { lineWidth: 0 })))).toEqual([]);
  });
});
