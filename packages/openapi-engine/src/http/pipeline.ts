/**
 * The `/v1` request pipeline: Express middlewares run in a fixed order by one Express layer.
 *
 * An Express router walks its layers one by one, matching each against the path and trimming the
 * mount prefix; for steps that apply to every API request that walk bought nothing and cost
 * about a tenth of a request's CPU (bench: see README "Benchmarks"). `pipeline` calls the steps
 * directly, with Express's semantics for the parts they use: `next()` runs the next step,
 * `next(err)` leaves the pipeline for Express's error handling, and a thrown error or a rejected
 * promise counts as `next(err)`.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";

/** One middleware that runs `steps` in order, then passes on to what follows it in Express. */
export function pipeline(steps: readonly RequestHandler[]): RequestHandler {
  return function pipelineMiddleware(req: Request, res: Response, done: NextFunction): void {
    let index = 0;
    let finished = false;
    const finish = (err?: unknown) => {
      if (finished) return;
      finished = true;
      done(err);
    };
    const next = (err?: unknown): void => {
      if (finished) return;
      if (err !== undefined && err !== null && err !== false) {
        finish(err);
        return;
      }
      const step = steps[index++];
      if (step === undefined) {
        finish();
        return;
      }
      try {
        const result: unknown = step(req, res, next);
        if (result instanceof Promise)
          result.catch((e: unknown) => finish(e ?? new Error("rejected")));
      } catch (e) {
        finish(e);
      }
    };
    next();
  };
}

/** `step` for requests `applies` accepts; other requests go straight on. */
export function when(applies: (req: Request) => boolean, step: RequestHandler): RequestHandler {
  return function conditionalStep(req, res, next) {
    if (applies(req)) return step(req, res, next);
    next();
  };
}
