/**
 * Baseline (b): bare Express 5 over the same store, as a naive service would write it: express.json()
 * and res.json(), Express defaults (ETag, X-Powered-By) left on, no validation, auth or limits.
 */

import type { AddressInfo } from "node:net";
import { JsonText } from "@animal-store/openapi-engine";
import express from "express";
import { basePath } from "../base-path.js";
import type { BaselineHandlers, NewPetInput } from "./baseline-handlers.js";

/** Starts the bare Express baseline on 127.0.0.1 at an ephemeral port; resolves with its URL. */
export async function startBareExpress(handlers: BaselineHandlers): Promise<string> {
  const app = express();
  app.get(`${basePath}/pets`, async (req, res) => {
    const limit = Number(req.query.limit ?? 20);
    const status = typeof req.query.status === "string" ? req.query.status : undefined;
    const { status: code, body } = await handlers.listPets(limit, status);
    // A page the store wrote as JSON text is sent as it is, as the server does.
    if (body instanceof JsonText) res.status(code).type("json").send(JsonText.textOf(body));
    else res.status(code).json(body);
  });
  app.post(`${basePath}/pets`, express.json(), async (req, res) => {
    const { status, body } = await handlers.createPet(req.body as NewPetInput);
    res.status(status).json(body);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
