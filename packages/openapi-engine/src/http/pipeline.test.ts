import type { NextFunction, Request, RequestHandler, Response } from "express";
import { describe, expect, it } from "vitest";
import { pipeline, when } from "./pipeline.js";

/** Runs `handler` on a fake request; resolves with what it passed on (or "answered"). */
function run(handler: RequestHandler, req: Partial<Request> = {}): Promise<unknown> {
  return new Promise((resolve) => {
    const res = { end: () => resolve("answered") } as unknown as Response;
    handler(req as Request, res, ((err?: unknown) => resolve(err ?? "passed on")) as NextFunction);
  });
}

describe("pipeline", () => {
  it("runs the steps in order, then passes on", async () => {
    const order: number[] = [];
    const step =
      (n: number): RequestHandler =>
      (_req, _res, next) => {
        order.push(n);
        next();
      };
    expect(await run(pipeline([step(1), step(2), step(3)]))).toBe("passed on");
    expect(order).toEqual([1, 2, 3]);
  });

  it("stops at a step that answers", async () => {
    const later: string[] = [];
    const answered = await run(pipeline([(_req, res) => res.end(), () => later.push("ran")]));
    expect(answered).toBe("answered");
    expect(later).toEqual([]);
  });

  it("leaves on next(err), a thrown error or a rejected promise, skipping the rest", async () => {
    const boom = new Error("boom");
    const after: string[] = [];
    const rest: RequestHandler = () => after.push("ran");
    expect(await run(pipeline([(_req, _res, next) => next(boom), rest]))).toBe(boom);
    expect(
      await run(
        pipeline([
          () => {
            throw boom;
          },
          rest,
        ]),
      ),
    ).toBe(boom);
    expect(await run(pipeline([async () => Promise.reject(boom), rest]))).toBe(boom);
    expect(after).toEqual([]);
  });

  it("passes on once, even when a step calls next twice", async () => {
    let calls = 0;
    const twice: RequestHandler = (_req, _res, next) => {
      next();
      next(new Error("late"));
    };
    pipeline([twice])(
      {} as Request,
      {} as Response,
      (() => {
        calls++;
      }) as NextFunction,
    );
    expect(calls).toBe(1);
  });

  it("runs a `when` step only for the requests it applies to", async () => {
    const seen: string[] = [];
    const step = when(
      (req) => req.method === "GET",
      (req, _res, next) => {
        seen.push(String(req.method));
        next();
      },
    );
    await run(pipeline([step]), { method: "GET" });
    await run(pipeline([step]), { method: "POST" });
    expect(seen).toEqual(["GET"]);
  });
});
