/**
 * Baseline (c): raw `node:http` over the same store, with no framework, validation, auth or
 * limits. It is the ceiling: what answering these requests costs at the very least.
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { JsonText } from "@animal-store/openapi-engine";
import { basePath } from "../base-path.js";
import type { BaselineHandlers, HandlerResult, NewPetInput } from "./baseline-handlers.js";

function sendJson(res: ServerResponse, { status, body }: HandlerResult): void {
  // The handlers' JSON text (a page the store wrote as JSON) is sent as it is, as the server does.
  const text = body instanceof JsonText ? JsonText.textOf(body) : JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

const notFound = { status: 404, body: { code: "not_found" } };
const notAllowed = { status: 405, body: { code: "method_not_allowed" } };

async function handle(handlers: BaselineHandlers, req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? "/";
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (path !== `${basePath}/pets`) return sendJson(res, notFound);
  if (req.method === "GET") {
    const query = new URLSearchParams(queryAt === -1 ? "" : url.slice(queryAt + 1));
    const limit = Number(query.get("limit") ?? 20);
    return sendJson(res, await handlers.listPets(limit, query.get("status") ?? undefined));
  }
  if (req.method === "POST") {
    const input = JSON.parse(await readBody(req)) as NewPetInput;
    return sendJson(res, await handlers.createPet(input));
  }
  return sendJson(res, notAllowed);
}

/** Starts the raw baseline on 127.0.0.1 at an ephemeral port; resolves with its URL. */
export async function startRawHttp(handlers: BaselineHandlers): Promise<string> {
  const server = createServer((req, res) => {
    handle(handlers, req, res).catch(() =>
      sendJson(res, { status: 500, body: { code: "internal_error" } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
