import type { NextFunction, Request, RequestHandler, Response } from "express";
import { describe, expect, it } from "vitest";
import { compose, NextCalledTwiceError } from "./router.js";

/** Runs `handler` on a fake request; resolves with what it passed on (or "answered"). */
function run(handler: RequestHandler, req: Partial<Request> = {}): Promise<unknown> {
  return new Promise((resolve) => {
    const res = { end: () => resolve("answered") } as unknown as Response;
    handler(req as Request, res, ((err?: unknown) => resolve(err ?? "passed on")) as NextFunction);
  });
}

describe("compose", () => {
  it("runs the steps in order, then passes on", async () => {
    const order: number[] = [];
    const step =
      (n: number): RequestHandler =>
      (_req, _res, next) => {
        order.push(n);
        next();
      };
    expect(await run(compose([step(1), step(2), step(3)]))).toBe("passed on");
    expect(await run(compose([]))).toBe("passed on");
    expect(order).toEqual([1, 2, 3]);
  });

  it("stops at a step that answers", async () => {
    const later: string[] = [];
    const answered = await run(compose([(_req, res) => res.end(), () => later.push("ran")]));
    expect(answered).toBe("answered");
    expect(later).toEqual([]);
  });

  it("leaves on next(err), a thrown error or a rejected promise, skipping the rest", async () => {
    const boom = new Error("boom");
    const after: string[] = [];
    const rest: RequestHandler = () => after.push("ran");
    expect(await run(compose([(_req, _res, next) => next(boom), rest]))).toBe(boom);
    expect(
      await run(
        compose([
          () => {
            throw boom;
          },
          rest,
        ]),
      ),
    ).toBe(boom);
    expect(await run(compose([async () => Promise.reject(boom), rest]))).toBe(boom);
    expect(after).toEqual([]);
  });

  it("refuses next() called twice: the steps after it run once, and the error names the step", async () => {
    const ran: string[] = [];
    const outcomes: unknown[] = [];
    const twice: RequestHandler = function callsNextTwice(_req, _res, next) {
      next();
      next();
    };
    const after: RequestHandler = (_req, _res, next) => {
      ran.push("after");
      next();
    };
    compose([twice, after])(
      {} as Request,
      {} as Response,
      ((err?: unknown) => outcomes.push(err ?? "passed on")) as NextFunction,
    );
    expect(ran).toEqual(["after"]);
    // The first call went through to the end; the second is reported, not run.
    expect(outcomes[0]).toBe("passed on");
    expect(outcomes).toHaveLength(1);

    const later = await run(
      compose([
        async function awaitsThenCallsTwice(_req, _res, next) {
          await Promise.resolve();
          next(new Error("first"));
          next();
        },
      ]),
    );
    expect(later).toEqual(new Error("first"));

    const caught = await run(
      compose([
        function answersThenCallsTwice(_req, _res, next) {
          next();
          next();
        },
        // Answers later (never calls next), so the pipeline is still open for the report.
        () => {
          ran.push("answering");
        },
      ]),
    );
    expect(ran).toEqual(["after", "answering"]);
    expect(caught).toBeInstanceOf(NextCalledTwiceError);
    expect((caught as Error).message).toBe("next() called twice by the step answersThenCallsTwice");
  });
});
