/** Requests and responses built with Express's prototypes, so Express never has to change them. */
import { createServer, IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { expressMessageClasses } from "./express-messages.js";

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
});
