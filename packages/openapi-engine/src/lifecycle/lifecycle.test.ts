import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { Lifecycle } from "../routing/router.js";
import { step } from "./lifecycle.js";

const setsCaller = step<object, { caller: string }>(function setsCaller(_req, res, next) {
  res.locals.caller = "k1";
  next();
});
const readsCaller = step<{ caller: string }, { greeting: string }>(
  function readsCaller(_req, res, next) {
    res.locals.greeting = `hello ${res.locals.caller}`;
    next();
  },
);
const readsRoute = step<{ route: string }>(function readsRoute(_req, _res, next) {
  next();
});

/** Runs `handler` on a fake request; resolves with its locals once it passes on. */
function run(handler: ReturnType<Lifecycle<object>["handler"]>, locals: object = {}) {
  return new Promise<object>((resolve) => {
    const res = { locals } as Response;
    handler({} as Request, res, (() => resolve(res.locals)) as NextFunction);
  });
}

describe("Lifecycle", () => {
  it("runs its steps in order, each reading what the earlier ones set", async () => {
    const lifecycle = Lifecycle.after().use(setsCaller).use(readsCaller);
    expect(await run(lifecycle.handler())).toEqual({ caller: "k1", greeting: "hello k1" });
  });

  it("takes what was set before its first step as set", async () => {
    const lifecycle = Lifecycle.after<{ route: string }>().use(readsRoute).use(setsCaller);
    expect(await run(lifecycle.handler() as never, { route: "/widgets" })).toEqual({
      route: "/widgets",
      caller: "k1",
    });
  });

  it("does not compile a step before the steps that set what it reads", () => {
    // @ts-expect-error readsCaller reads `caller`, which nothing before it sets.
    const early = Lifecycle.after().use(readsCaller);
    // @ts-expect-error readsRoute reads `route`: the lifecycle starts without it.
    const unrouted = Lifecycle.after().use(setsCaller).use(readsRoute);
    expect([early, unrouted].every((lifecycle) => lifecycle instanceof Lifecycle)).toBe(true);
  });

  it("leaves a step out with useIf when it does not apply, and runs it when it does", async () => {
    const ran: string[] = [];
    const marks = step<object>(function marks(_req, _res, next) {
      ran.push("marks");
      next();
    });
    await run(Lifecycle.after().useIf(false, marks).use(setsCaller).handler());
    expect(ran).toEqual([]);
    await run(Lifecycle.after().useIf(true, marks).use(setsCaller).handler());
    expect(ran).toEqual(["marks"]);
    // @ts-expect-error readsRoute reads `route`: useIf keeps the order check of use.
    const unrouted = Lifecycle.after().useIf(true, readsRoute);
    expect(unrouted).toBeInstanceOf(Lifecycle);
  });
});
