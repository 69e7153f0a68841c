/**
 * Runs a request through a fixed list of steps in one Express layer, as Hono's `compose` does:
 * a router would walk and match a layer per step, which buys nothing for steps every request of
 * a lifecycle takes. A step calls `next()` to go on, `next(err)` to leave for the error handler,
 * or answers; a thrown error or a rejected promise counts as `next(err)`. Each step gets a `next`
 * of its own that works once: a second call is a bug, and leaves as an error naming the step
 * instead of running the steps after it again.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";

/** A step called its `next` a second time. */
export class NextCalledTwiceError extends Error {
  constructor(step: string) {
    super(`next() called twice by the step ${step || "(anonymous)"}`);
    this.name = "NextCalledTwiceError";
  }
}

/** One middleware that runs `steps` in order, then passes on to what follows it in Express. */
export function compose(steps: readonly RequestHandler[]): RequestHandler {
  const count = steps.length;
  return function composed(req: Request, res: Response, done: NextFunction): void {
    let finished = false;
    const finish = (err?: unknown): void => {
      if (finished) return;
      finished = true;
      done(err);
    };
    const dispatch = (index: number): void => {
      const step = steps[index];
      if (step === undefined) {
        finish();
        return;
      }
      let called = false;
      const next = (err?: unknown): void => {
        if (called) throw new NextCalledTwiceError(step.name);
        called = true;
        if (err !== undefined && err !== null && err !== false) finish(err);
        else if (index + 1 < count) dispatch(index + 1);
        else finish();
      };
      try {
        const result: unknown = step(req, res, next);
        if (result instanceof Promise) {
          result.catch((e: unknown) => finish(e ?? new Error(`${step.name} rejected`)));
        }
      } catch (e) {
        finish(e);
      }
    };
    if (count === 0) finish();
    else dispatch(0);
  };
}
