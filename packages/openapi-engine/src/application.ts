/**
 * What an application gives the engine: its names (the engine names nothing of its own), the
 * contract it serves, how to open its store, and its handlers over a store.
 */
import type { LoadedSpec, OpenApiDocument } from "@animal-store/openapi";
import type { Verifiers } from "./auth/security.js";
import type { HandlerSet } from "./compiled-operation.js";
import type { ConfigDefaults, DatabaseConfig } from "./config.js";
import type { Contract } from "./contract/contract.js";
import type { ApiKeyStore } from "./storage/api-key-store.js";
import type { StoreLifecycle } from "./storage/store-lifecycle.js";

/** What an application names that the engine does not: its logs' service and its defaults. */
export interface ApplicationNames extends ConfigDefaults {
  /** The `service` of every log line. */
  service: string;
}

/** The least an application's store is: where API keys live, with readiness and shutdown. */
export type EngineStore = ApiKeyStore & StoreLifecycle;

/** An application of the engine, over its store `S`. */
export interface Application<S extends EngineStore> {
  names: ApplicationNames;
  /** The bundled contract it serves. */
  spec: LoadedSpec;
  /** Opens (and migrates) the configured store. */
  openStore(database: DatabaseConfig): Promise<S>;
  /** Opens a throw-away store of the same kind: the warm-up's requests write there. */
  openScratchStore(): Promise<S>;
  /** Its handler of each operation, by operationId, over `store`. */
  handlers(store: S, contract: Contract): HandlerSet;
  /**
   * Its check of each security scheme's credentials, by the scheme's name in
   * `components.securitySchemes`, over `store` (auth/security-schemes.ts `CredentialVerifier`:
   * given the presented credential, answer who it identifies and its scopes, or null to refuse).
   * An `http` bearer or `apiKey` scheme left out is checked against the engine's key store;
   * `http` basic, `oauth2` and `openIdConnect` schemes have no default, so a contract using one
   * that is left out does not start. Absent: every scheme is left out.
   */
  verifiers?(store: S): Verifiers;
  /**
   * Checks, once the store is open, that it can hold what the contract says is stored; rejects
   * with a message naming what is missing and what to write (the server then does not start).
   */
  checkStorage?(store: S, spec: OpenApiDocument): Promise<void>;
  /**
   * Turns off V8's allocation-site pretenuring for the whole process when the server is made
   * (http-server/v8-tuning.ts says why). A V8 flag acts on everything the process runs, so the
   * engine leaves it alone unless the application, which owns the process, asks for it.
   */
  tuneV8ForServing?: boolean;
}
