/** Requests and responses built with Express's prototypes, so Express never has to change them. */
import { createServer, IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import express from "express";
import { describe, expect, it } from "vitest";
import { expressMessageClasses, probeExpressMessages } from "./express-messages.js";

// V8's own checks, compiled after the flag is set (it applies to code compiled from then on).
setFlagsFromString("--allow-natives-syntax");
const haveSameMap = new Function("a", "b", "return %HaveSameMap(a, b)") as (
  a: object,
  b: object,
) => boolean;
const hasFastProperties = new Function("o", "return %HasFastProperties(o)") as (
  o: object,
) => boolean;

describe("probeExpressMessages", () => {
  it("passes on this Express, and names what moved when app.handle replaces a prototype (planted)", () => {
    expect(() => probeExpressMessages()).not.toThrow();
    const app = express.application as unknown as { handle: (...args: unknown[]) => void };
    const handle = app.handle;
    // As if Express gave each request a prototype of its own instead of app.request.
    app.handle = function (this: { request: object }, ...args: unknown[]) {
      this.request = Object.create(this.request);
      return handle.apply(this, args);
    };
    try {
      expect(() => probeExpressMessages()).toThrow(/the request's prototype changed/);
    } finally {
      app.handle = handle;
    }
  });
});

describe("expressMessageClasses", () => {
  it("builds requests and responses with the app's prototypes before Express sees them", async () => {
    const app = express();
    const expressRequest = app.request;
    app.get("/pets/:id", (req, res) => {
      res.status(201).json({ id: req.params.id, q: req.query.q, ip: req.ip, app: req.app === app });
    });
    const classes = expressMessageClasses(app);
    expect(expressMessageClasses(app)).toBe(classes);
    const server = createServer(classes, app);
    const seen: boolean[] = [];
    // Runs before Express's handler, on the objects as Node built them.
    server.prependListener("request", (req, res) => {
      seen.push(
        Object.getPrototypeOf(req) === app.request,
        Object.getPrototypeOf(res) === app.response,
        Object.getPrototypeOf(app.request) === expressRequest,
        req instanceof IncomingMessage,
        res instanceof ServerResponse,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/pets/7?q=x`);
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ id: "7", q: "x", ip: "127.0.0.1", app: true });
      expect(seen).toEqual([true, true, true, true, true]);
    } finally {
      server.close();
    }
  });

  it("gives every request one hidden class and every response another, both with fast properties", async () => {
    const app = express();
    const held: { req: object; res: object; answer: () => void }[] = [];
    let bothHeld: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      bothHeld = resolve;
    });
    // Both requests are held at the same point of their life, so their shapes can be compared.
    app.get("/hold", (req, res) => {
      held.push({ req, res, answer: () => res.json({ ok: true }) });
      if (held.length === 2) bothHeld();
    });
    const server = createServer(expressMessageClasses(app), app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/hold`;
      // Earlier requests first, so V8 has finished sizing the classes.
      const warm = fetch(url);
      const warmAgain = fetch(url);
      await arrived;
      for (const h of held.splice(0)) h.answer();
      await Promise.all([warm, warmAgain]);
      const second = new Promise<void>((resolve) => {
        bothHeld = resolve;
      });
      const answers = [fetch(url), fetch(url)];
      await second;
      const [a, b] = held as [(typeof held)[0], (typeof held)[0]];
      expect(haveSameMap(a.req, b.req)).toBe(true);
      expect(haveSameMap(a.res, b.res)).toBe(true);
      expect(hasFastProperties(a.req)).toBe(true);
      expect(hasFastProperties(a.res)).toBe(true);
      for (const h of held) h.answer();
      await Promise.all(answers);
    } finally {
      server.close();
    }
  });
});
