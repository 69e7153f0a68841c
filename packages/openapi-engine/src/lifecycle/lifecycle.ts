/**
 * The request lifecycle as a typed list of steps. Each step declares the locals it reads
 * (`Needs`, set by earlier steps on `res.locals`) and the ones it sets (`Sets`); building a
 * lifecycle checks, at compile time, that every step comes after the steps that set what it
 * reads. At run time it is just the steps, composed (compose.ts).
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { compose } from "./compose.js";

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

/**
 * Steps in order. `Start` is what is set before the first step; `Have` is that and what every
 * step so far sets.
 */
export class Lifecycle<Start extends object, Have extends object = Start> {
  private constructor(private readonly steps: readonly RequestHandler[]) {}

  /** An empty lifecycle whose first step finds `Start` already set. */
  static after<Start extends object = object>(): Lifecycle<Start> {
    return new Lifecycle<Start>([]);
  }

  /**
   * This lifecycle with `next` at its end. A step that reads a local no earlier step sets does
   * not compile: the second argument then asks for the names it misses.
   */
  use<Needs extends object, Sets extends object>(
    next: Step<Needs, Sets>,
    ..._order: Have extends Needs ? [] : [missing: Exclude<keyof Needs, keyof Have>]
  ): Lifecycle<Start, Have & Sets> {
    return new Lifecycle<Start, Have & Sets>([...this.steps, next as unknown as RequestHandler]);
  }

  /**
   * This lifecycle with `next` at its end when `applies`, unchanged otherwise: for a step that
   * does nothing for some operations (their lifecycles are built one per operation and leave it
   * out). Such a step can set no local: a later step could not tell whether it ran.
   */
  useIf<Needs extends object>(
    applies: boolean,
    next: Step<Needs, Record<never, never>>,
    ..._order: Have extends Needs ? [] : [missing: Exclude<keyof Needs, keyof Have>]
  ): Lifecycle<Start, Have> {
    return applies
      ? new Lifecycle<Start, Have>([...this.steps, next as unknown as RequestHandler])
      : this;
  }

  /** The steps as one Express middleware. */
  handler(): Branch<Start> {
    return compose(this.steps);
  }
}
