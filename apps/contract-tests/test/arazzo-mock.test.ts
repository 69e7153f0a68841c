// Contract gate 2 against the mock: the happy-path workflow passes on the Prism mock (so frontends
// working against the mock follow the same flow as against the server), and a planted wrong
// expectation makes the same run fail.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pagedList } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopAllChildren } from "./support/child-process.js";
import { type RunningMock, startMock } from "./support/mock.js";
import { plantedWorkflow, runRespect, workflowFile } from "./support/respect.js";

const scratch = mkdtempSync(join(tmpdir(), "arazzo-mock-"));
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock();
}, 90_000);

afterAll(async () => {
  await stopAllChildren();
  rmSync(scratch, { recursive: true, force: true });
});

// The mock accepts any bearer credential; it must still be sent (no credential → 401).
const inputs = { apiKey: "any-token-the-mock-accepts", pageMax: pagedList().max };

describe("Arazzo happy path against the Prism mock", () => {
  it("createGetList passes: statuses, headers, content types and schemas", async () => {
    const run = await runRespect(workflowFile("pets.arazzo.yaml"), mock.url, inputs, [
      "createGetList",
    ]);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toMatch(/Workflows: 1 passed, 1 total/);
    expect(run.output).not.toContain(inputs.apiKey);
  });

  it("fails when the workflow expects what the contract does not promise (planted fault)", async () => {
    const planted = plantedWorkflow(
      "pets.arazzo.yaml",
      scratch,
      "- condition: $statusCode == 201",
      "- condition: $statusCode == 200",
    );
    const run = await runRespect(planted, mock.url, inputs, ["createGetList"]);
    expect(run.exitCode).not.toBe(0);
    expect(run.output).toMatch(/✗ success criteria check - \$statusCode == 200/);
    expect(run.output).toMatch(/Workflows: 1 failed, 1 total/);
  });
});
