// Types of `virtual:contract` (vite/contract-module.ts): facts read from the bundled spec at build.
declare module "virtual:contract" {
  import type { PetStatus } from "@animal-store/client";
  /** PetStatus's enum, in spec order. */
  export const petStatuses: readonly PetStatus[];
  /** listPets' `limit` query parameter: its bounds and default. */
  export const limitParameter: {
    readonly minimum: number;
    readonly maximum: number;
    readonly default: number;
  };
}
