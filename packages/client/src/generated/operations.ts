/**
 * This file was generated from openapi/openapi.yaml by packages/client/scripts/generate-operations.mjs.
 * Do not make direct changes to the file: edit the spec and run `pnpm generate`.
 */
import type { OperationId, paths } from "@animal-store/api-types";
import type { MaybeOptionalInit } from "openapi-fetch";
import type { SuccessData } from "../api-error.js";
import type { CallResult, InitParam } from "../client-types.js";
import type { Page } from "../pages.js";

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

/**
 * The deprecated operations' call signatures, per method: the client's methods put them in
 * front of their generic signature, so a call of a deprecated operation resolves to a
 * signature marked `@deprecated` (TypeScript 6387; editors strike the call through).
 */
export interface DeprecatedCalls {
  get: {
    /** @deprecated getPet (GET /pets/{petId}) is deprecated since 2026-01-01. Sunset 2030-12-05: from then on it answers 410 Gone. Use GET /pets?status= (listPets) instead. */
    <Init extends MaybeOptionalInit<paths["/pets/{petId}"], "get">>(
      url: "/pets/{petId}",
      ...init: InitParam<Init>
    ): Promise<CallResult<paths["/pets/{petId}"]["get"], Init>>;
  };
}

/** The same signatures for `client.request(method, url, init)`. */
export interface DeprecatedRequests {
  /** @deprecated getPet (GET /pets/{petId}) is deprecated since 2026-01-01. Sunset 2030-12-05: from then on it answers 410 Gone. Use GET /pets?status= (listPets) instead. */
  <Init extends MaybeOptionalInit<paths["/pets/{petId}"], "get">>(
    method: "get",
    url: "/pets/{petId}",
    ...init: InitParam<Init>
  ): Promise<CallResult<paths["/pets/{petId}"]["get"], Init>>;
}

/** The same signatures for `client.pages(url, init)` (deprecated GET operations). */
export interface DeprecatedPages {
  /** @deprecated getPet (GET /pets/{petId}) is deprecated since 2026-01-01. Sunset 2030-12-05: from then on it answers 410 Gone. Use GET /pets?status= (listPets) instead. */
  <Init extends MaybeOptionalInit<paths["/pets/{petId}"], "get">>(
    url: "/pets/{petId}",
    ...init: InitParam<Init>
  ): AsyncGenerator<Page<SuccessData<CallResult<paths["/pets/{petId}"]["get"], Init>>>, void, undefined>;
}
