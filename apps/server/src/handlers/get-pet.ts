/** getPet: the pet, or 404 not_found. */
import type { HandlerFactory } from "./types.js";

export const getPet: HandlerFactory<"getPet"> =
  (store) =>
  async ({ params, reply }) => {
    const pet = await store.getPet(params.petId);
    if (pet) return reply(200, pet);
    return reply(404, {
      code: "not_found",
      message: `Pet ${params.petId} not found.`,
      status: 404,
    });
  };
