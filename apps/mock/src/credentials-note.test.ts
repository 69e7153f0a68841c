import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { credentialsNote } from "./credentials-note.mjs";

const contract = (name: string) =>
  parse(
    readFileSync(
      fileURLToPath(
        new URL(`../../../packages/test-support/fixtures/contracts/${name}`, import.meta.url),
      ),
      "utf8",
    ),
  );

describe("credentialsNote", () => {
  it("names a cookie and a query API key and OpenID Connect, and operations open to anyone", () => {
    expect(credentialsNote(contract("library-loans.yaml"))).toBe(
      "the mock accepts Session: any value in the session cookie; Oidc: any bearer token (Authorization: Bearer ...); QueryKey: any value in the key query parameter (some operations need none).",
    );
  });

  it("says when no operation needs a credential", () => {
    const open = contract("library-loans.yaml");
    // biome-ignore lint/suspicious/noExplicitAny: a parsed contract, walked loosely by the test
    for (const item of Object.values(open.paths) as Record<string, any>[]) {
      for (const operation of Object.values(item)) operation.security = [];
    }
    expect(credentialsNote(open)).toBe("no operation needs a credential.");
  });
});
