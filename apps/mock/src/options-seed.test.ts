// `--seed` in either mode: Prism's seed for generated data (text), or, with --stateful, the number
// of items the any-contract mock synthesizes per resource (MOCK_SEED_COUNT; MOCK_SEED stays Prism's).
import { describe, expect, it } from "vitest";
import { parseMockCommand } from "./options.mjs";

describe("--seed", () => {
  it("is a count of items per resource with --stateful", () => {
    expect(parseMockCommand(["--stateful", "--seed", "40"], {})).toMatchObject({
      kind: "run",
      options: { stateful: true, seedCount: 40 },
    });
    expect(parseMockCommand(["--stateful"], { MOCK_SEED_COUNT: "7" })).toMatchObject({
      kind: "run",
      options: { seedCount: 7 },
    });
  });

  it("reads MOCK_SEED_COUNT only with --stateful, MOCK_SEED only for Prism", () => {
    const stateful = parseMockCommand(["--stateful"], { MOCK_SEED: "frontend" });
    expect(stateful.kind === "run" && stateful.options.seedCount).toBeUndefined();
    const prism = parseMockCommand([], { MOCK_SEED: "frontend", MOCK_SEED_COUNT: "7" });
    expect(prism).toMatchObject({ kind: "run", options: { seed: "frontend" } });
    expect(prism.kind === "run" && prism.options.seedCount).toBeUndefined();
  });

  it("refuses a count that is not a whole number, naming both meanings", () => {
    const parsed = parseMockCommand(["--stateful", "--seed", "12a"], {});
    expect(parsed).toMatchObject({ kind: "error" });
    expect(parsed.kind === "error" && parsed.message).toContain(
      'with --stateful it is a whole number of items to make per resource, not "12a"',
    );
  });
});

describe("--any-contract", () => {
  it("asks for the any-contract application, with --stateful only", () => {
    expect(parseMockCommand(["--stateful", "--any-contract"], {})).toMatchObject({
      kind: "run",
      options: { stateful: true, anyContract: true },
    });
    expect(parseMockCommand(["--stateful"], { MOCK_ANY_CONTRACT: "1" })).toMatchObject({
      options: { anyContract: true },
    });
    const prism = parseMockCommand(["--any-contract"], {});
    expect(prism.kind === "error" && prism.message).toContain(
      "--any-contract applies to --stateful only",
    );
  });
});
