// The docs plugins on a foreign fixture contract (no vendor extensions, API key, HTTP Basic and
// OAuth2, form and binary bodies, operations without examples): the page builds, every operation
// gets its samples with the contract's own credential, and no note restates what it lacks.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
// @ts-expect-error: plain ESM plugin without declarations
import { decorate } from "../plugins/animal-store-docs.js";

const run = promisify(execFile);
const docs = fileURLToPath(new URL("..", import.meta.url));
const fixture = fileURLToPath(
  new URL(
    "../../../packages/test-support/fixtures/contracts/harbour-ferries.yaml",
    import.meta.url,
  ),
);
const scratch = mkdtempSync(join(tmpdir(), "foreign-docs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const decorated = () => {
  const root = parse(readFileSync(fixture, "utf8"));
  decorate(root);
  return root;
};
// biome-ignore lint/suspicious/noExplicitAny: a parsed contract, walked loosely by the test
const samples = (root: Record<string, any>, path: string, method: string) =>
  Object.fromEntries(
    (root.paths[path][method]["x-codeSamples"] as { label: string; source: string }[]).map((s) => [
      s.label,
      s.source,
    ]),
  );

describe("the docs plugins on a foreign contract", { timeout: 120_000 }, () => {
  it("write samples with the contract's own credentials and no rate-limit note", () => {
    const root = decorated();
    const station = samples(root, "/stations/{station-id}", "get").curl;
    expect(station).toContain(
      "curl -X GET 'https://api.harbour-ferries.test/ferries/v2/stations/efdbb9d1-02c2-4bc3-afb7-6788d8782b1e'",
    );
    expect(station).toContain('-H "X-Api-Key: $API_KEY"');
    expect(station).not.toContain("Bearer");
    expect(samples(root, "/account/avatar", "put").curl).toContain('-u "$USER:$PASSWORD"');
    expect(samples(root, "/account/avatar", "put").curl).toContain("--data-binary @file");
    const pay = samples(root, "/bookings/{booking-id}/payment", "post").curl;
    expect(pay).toContain('-H "Authorization: Bearer $ACCESS_TOKEN"');
    expect(pay).toContain("--data-urlencode 'card-token=<card-token>'");
    expect(samples(root, "/stations", "get").curl).not.toContain("Authorization");
    // biome-ignore lint/suspicious/noExplicitAny: a parsed contract, walked loosely by the test
    for (const item of Object.values(root.paths) as Record<string, any>[]) {
      for (const operation of Object.values(item).filter((o) => o?.operationId)) {
        expect(operation.description).not.toMatch(/Rate limit|Deprecation timeline/);
      }
    }
  });

  it("send each scheme's credential where the second fixture asks for it", () => {
    const root = parse(readFileSync(fixture.replace("harbour-ferries", "library-loans"), "utf8"));
    decorate(root);
    expect(samples(root, "/books", "get").curl).toBe(
      "curl -X GET 'https://library.test/books?published-after=1999-12-31'",
    );
    expect(samples(root, "/books/{isbn}/cover", "put").curl).toContain('-b "session=$API_KEY"');
    expect(samples(root, "/books/{isbn}/cover", "put").curl).toContain("/books/<isbn>/cover");
    expect(samples(root, "/members/{member-id}/loans", "get").curl).toContain(
      '-H "Authorization: Bearer $ACCESS_TOKEN"',
    );
  });

  it("show a deprecation's timeline with the rows its extensions give, and none without", () => {
    const root = parse(readFileSync(fixture, "utf8"));
    root.paths["/stations"].get.deprecated = true;
    root.paths["/bookings"].get.deprecated = true;
    root.paths["/bookings"].get["x-sunset"] = "2030-01-01";
    decorate(root);
    expect(root.paths["/stations"].get.description).not.toMatch(/Deprecation timeline/);
    expect(root.paths["/bookings"].get.description).toMatch(
      /#### Deprecation timeline[\s\S]*\| 2030-01-01 00:00:00 UTC \| Sunset/,
    );
    expect(root.paths["/bookings"].get.description).not.toMatch(/undefined/);
  });

  it("let `redocly build-docs` build the page", async () => {
    const output = join(scratch, "index.html");
    await run(
      join(docs, "node_modules/.bin/redocly"),
      [
        "build-docs",
        fixture,
        "--config",
        "redocly.yaml",
        "--inlineBundle",
        "--template",
        "template.hbs",
        "--output",
        output,
      ],
      {
        cwd: docs,
        env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", REDOCLY_TELEMETRY: "off" },
      },
    );
    expect(existsSync(output)).toBe(true);
    const page = readFileSync(output, "utf8");
    expect(page).toContain("Harbour Ferries API");
    expect(page).toContain("X-Api-Key: $API_KEY");
  });
});
