import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPetDeprecation } from "./deprecation.js";
import type { ApiHttpError } from "./errors.js";
import { GET_PET_SUNSET } from "./sunset.js";

let now = 0;
let base = "";
const app = express()
  .get("/v1/pets/:petId", getPetDeprecation({ clock: () => now }), (_req, res) => {
    res.json({ id: 1, name: "Rex", categoryId: 1 });
  })
  .use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = err as ApiHttpError;
    res.status(e.status).json({ code: e.code, message: e.message, status: e.status });
  });
const server = app.listen(0, "127.0.0.1");

beforeAll(async () => {
  if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const expectDeprecationHeaders = (res: globalThis.Response) => {
  expect(res.headers.get("deprecation")).toBe("@1767225600");
  expect(res.headers.get("sunset")).toBe("Thu, 05 Dec 2030 00:00:00 GMT");
  expect(res.headers.get("link")).toBe('</v1/pets>; rel="successor-version"');
};

describe("getPetDeprecation", () => {
  it("answers normally with the three headers until the last millisecond before sunset", async () => {
    now = GET_PET_SUNSET.getTime() - 1;
    const res = await fetch(`${base}/v1/pets/1`);
    expect(res.status).toBe(200);
    expectDeprecationHeaders(res);
  });

  it("answers 410 gone, still with the headers, from the sunset instant on", async () => {
    for (now of [GET_PET_SUNSET.getTime(), GET_PET_SUNSET.getTime() + 86_400_000]) {
      const res = await fetch(`${base}/v1/pets/1`);
      expect(res.status).toBe(410);
      expectDeprecationHeaders(res);
      expect(await res.json()).toEqual({
        code: "gone",
        message: "GET /pets/{petId} was removed on 2030-12-05; use GET /pets?status= instead.",
        status: 410,
      });
    }
  });
});
