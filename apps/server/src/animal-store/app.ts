/**
 * createApp: the Animal Store API as an Express app, the engine with the Animal Store's handlers.
 * A pure factory over its store, limiter, clock, config and logger; by default it serves the
 * bundled contract, and a test may hand it another (a scratch edit of the spec).
 */
import { type LoadedSpec, loadBundledSpec } from "@animal-store/openapi";
import type { Express } from "express";
import { createEngineApp, type EngineDeps } from "../engine/app.js";
import { type Contract, compileContract } from "../engine/contract/contract.js";
import { createHandlers } from "./handlers.js";
import type { Store } from "./store/types.js";

/** The dependencies of the app; everything stateful comes in from outside. */
export type AppDeps = Omit<EngineDeps, "contract" | "handlers" | "store"> & {
  store: Store;
  /** The compiled contract to serve; else `spec` compiled; else the bundled contract. */
  contract?: Contract;
  spec?: LoadedSpec;
};

/** Builds the Animal Store API app (routes under the contract's base path, ops routes at the root). */
export function createApp(deps: AppDeps): Express {
  const contract = deps.contract ?? compileContract(deps.spec ?? loadBundledSpec());
  return createEngineApp({ ...deps, contract, handlers: createHandlers(deps.store, contract) });
}
