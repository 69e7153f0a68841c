/**
 * This file was generated from openapi/openapi.yaml by packages/client/scripts/generate-operations.mjs.
 * Do not make direct changes to the file: edit the spec and run `pnpm generate`.
 */
import type { OperationId } from "@animal-store/api-types";

/** One operation of the contract: how a request is recognised and what the spec calls it. */
export interface OperationEntry {
  readonly operationId: OperationId;
  readonly method: string;
  readonly path: string;
  readonly deprecated: boolean;
}

/** Every operation of the contract, in spec order. */
export const OPERATIONS: readonly OperationEntry[] = [
  { operationId: "listPets", method: "GET", path: "/pets", deprecated: false },
  { operationId: "createPet", method: "POST", path: "/pets", deprecated: false },
  { operationId: "getPet", method: "GET", path: "/pets/{petId}", deprecated: true },
];
