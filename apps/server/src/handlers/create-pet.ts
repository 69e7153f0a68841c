/** createPet: stores the validated body; 201 once the write is durable. */
import type { HandlerFactory } from "./types.js";

export const createPet: HandlerFactory<"createPet"> =
  (store) =>
  async ({ body, reply }) =>
    reply(201, await store.createPet(body));
