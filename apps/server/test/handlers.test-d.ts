/**
 * Type tests, checked by `pnpm typecheck` (tsc includes test/): handlers typed from the generated
 * operations reject a wrong body, an extra field, an undocumented status, a result not built by
 * `reply`, and a missing handler. Each @ts-expect-error fails the typecheck if the line below it
 * ever stops being an error.
 */
import type { Pet } from "@animal-store/api-types";
import type {
  PetHandler as Handler,
  PetRequest as HandlerRequest,
  Handlers,
} from "../src/handlers/index.js";

const pet: Pet = { id: 1, name: "Rex", categoryId: 1 };

// The documented outcomes type-check.
export const listPets: Handler<"listPets"> = async ({ reply }) => reply(200, [pet]);
export const getPet: Handler<"getPet"> = async ({ params, reply }) =>
  params.petId > 0
    ? reply(200, pet, { "X-Extra": "1" })
    : reply(404, { code: "not_found", message: "no", status: 404 });
export const createPet: Handler<"createPet"> = async ({ body, reply }) =>
  reply(201, { id: 2, ...body });
// These three, whatever else the contract adds later (each new operation brings its own tests).
export const handlers: Pick<Handlers, "listPets" | "getPet" | "createPet"> = {
  listPets,
  getPet,
  createPet,
};

// Request parts come in typed.
export function requestParts(
  list: HandlerRequest<"listPets">,
  get: HandlerRequest<"getPet">,
  create: HandlerRequest<"createPet">,
): void {
  const limit: number | undefined = list.query.limit;
  const status: "available" | "pending" | "sold" | undefined = list.query.status;
  const petId: number = get.params.petId;
  const name: string = create.body.name;
  // @ts-expect-error petId is a number, not a string
  const wrongId: string = get.params.petId;
  // @ts-expect-error listPets has no body
  const noBody: string = list.body.name;
  // @ts-expect-error listPets has no `colour` query parameter
  const noColour = list.query.colour;
  // @ts-expect-error getPet has no query parameters
  const noQuery = get.query.limit;
  // @ts-expect-error listPets has no path parameters
  const noPath = list.params.petId;
  void [limit, status, petId, name, wrongId, noBody, noColour, noQuery, noPath];
}

// @ts-expect-error a wrong body shape: a list answers an array of pets
export const wrongListBody: Handler<"listPets"> = async ({ reply }) => reply(200, pet);

// @ts-expect-error a body with a field the contract does not have
export const extraField: Handler<"getPet"> = async ({ reply }) => reply(200, { ...pet, colour: 1 });

export const missingField: Handler<"getPet"> = async ({ reply }) =>
  // @ts-expect-error a body missing a required field
  reply(200, { id: 1, name: "x" });

// @ts-expect-error an undocumented status: getPet never answers 418
export const undocumentedStatus: Handler<"getPet"> = async ({ reply }) => reply(418, pet);

// @ts-expect-error createPet documents 201, not 200
export const wrongSuccess: Handler<"createPet"> = async ({ reply }) => reply(200, pet);

// @ts-expect-error a 404 must carry the Error body, not a pet
export const wrongErrorBody: Handler<"getPet"> = async ({ reply }) => reply(404, pet);

export const wrongCode: Handler<"getPet"> = async ({ reply }) =>
  // @ts-expect-error an error code outside the contract's enum
  reply(404, { code: "missing", message: "no", status: 404 });

// @ts-expect-error a hand-made result that bypasses reply
export const handMade: Handler<"getPet"> = async () => ({ status: 200, body: pet });

const listReply = ({} as HandlerRequest<"listPets">).reply;
// @ts-expect-error a result built by another operation's reply
export const borrowed: Handler<"getPet"> = async () => listReply(200, [pet]);

// @ts-expect-error a missing handler: getPet is not implemented
export const missingHandler: Pick<Handlers, "listPets" | "getPet" | "createPet"> = {
  listPets,
  createPet,
};

export const unknownOperation: Handlers = {
  ...({} as Handlers),
  // @ts-expect-error a handler for an operation the contract does not have
  operationTheContractDoesNotHave: listPets,
};
