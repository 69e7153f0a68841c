/**
 * Types of the Animal Store API, generated from openapi/openapi.yaml (see src/generated/openapi.ts),
 * plus short aliases for the schemas callers use most.
 */
import type {
  components,
  operations,
  ParameterDefaults,
  Plan,
  paths,
} from "./generated/openapi.js";

export type { components, operations, ParameterDefaults, Plan, paths };

/** An animal of the store, as the API returns it. */
export type Pet = components["schemas"]["Pet"];
/** The body that creates an animal. */
export type NewPet = components["schemas"]["NewPet"];
/** Availability status of an animal. */
export type PetStatus = components["schemas"]["PetStatus"];
/** The body of every error response. */
export type ApiError = components["schemas"]["Error"];
/** The machine-readable error codes. */
export type ApiErrorCode = ApiError["code"];
/** The operation ids of the API. */
export type OperationId = keyof operations;
