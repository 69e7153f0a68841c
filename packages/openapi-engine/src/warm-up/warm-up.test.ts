/** Warm-up: one request per operation of the contract; a server that cannot answer must not start. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { exampleRequest } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import { compileContract } from "../contract/contract.js";
import { sendRequests } from "./warm-up.js";

const contract = compileContract(loadFixture());
const requests = contract.operations.map((op) =>
  exampleRequest(contract.spec, contract.basePath, op),
);

function answering(status: number, code = status >= 500 ? "internal_error" : "ok") {
  const seen: string[] = [];
  const app = (req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ code }));
  };
  return { app, seen };
}

describe("the warm-up's requests", () => {
  it("sends every operation of the contract once, with the warm-up key", async () => {
    const { app, seen } = answering(404);
    await sendRequests(app, requests, "k1");
    expect(seen).toEqual(requests.map((r) => `${r.method} ${r.path} Bearer k1`));
    expect(new Set(requests.map((r) => r.operationId))).toEqual(
      new Set(contract.operations.map((op) => op.operationId)),
    );
  });

  it("resolves when the store is down at start (503): the server starts and recovers later", async () => {
    const { app, seen } = answering(503);
    await sendRequests(app, requests, "k1");
    expect(seen).toHaveLength(requests.length);
  });

  it("resolves when every operation is a stub answering the engine's 500 not_implemented", async () => {
    const { app, seen } = answering(500, "not_implemented");
    await sendRequests(app, requests, "k1");
    expect(seen).toHaveLength(requests.length);
  });

  it("rejects, naming the operation and the answer, when one answers 500", async () => {
    const { app } = answering(500);
    const [first] = requests;
    await expect(sendRequests(app, requests, "k1")).rejects.toThrow(
      `warm-up ${first?.operationId} (${first?.method} ${first?.path}) answered 500: {"code":"internal_error"}`,
    );
  });
});
