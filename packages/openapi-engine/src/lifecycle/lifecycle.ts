/**
 * The request lifecycle as a typed list of steps. Each step declares the locals it reads
 * (`Needs`, set by earlier steps on `res.locals`) and the ones it sets (`Sets`); building a
 * lifecycle checks, at compile time, that every step comes after the steps that set what it
 * reads. The lifecycle itself (`Lifecycle`) is built and run by the router (routing/router.ts):
 * at run time it is just the steps, composed.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";

declare const needs: unique symbol;
declare const sets: unique symbol;
declare const starts: unique symbol;

/** What a step's function is: Express middleware whose `res.locals` holds `Locals`. */
type StepFunction<Locals extends object> = (
  req: Request,
  res: Response<unknown, Locals>,
  next: NextFunction,
) => void | Promise<void>;

/**
 * A step that reads the locals `Needs` and may set `Sets`. The symbol-keyed members carry only
 * the types: nothing holds them at run time.
 */
export type Step<Needs extends object = object, Sets extends object = object> = StepFunction<
  Needs & Partial<Sets>
> & { readonly [needs]?: Needs; readonly [sets]?: Sets };

/** `run` as a step that reads `Needs` and sets `Sets`. */
export function step<Needs extends object = object, Sets extends object = object>(
  run: StepFunction<Needs & Partial<Sets>>,
): Step<Needs, Sets> {
  return run;
}

/**
 * A lifecycle as one Express middleware, for whatever sets `Start` before it (the router hands
 * requests to these). `Branch<A>` is accepted where `Branch<B>` is asked for when B has all of A.
 */
export type Branch<Start extends object> = RequestHandler & {
  readonly [starts]?: (locals: Start) => void;
};
