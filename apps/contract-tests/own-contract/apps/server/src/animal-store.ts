/**
 * Harbour Ferries, composed: the contract it serves, its names, its store, its handlers and its
 * checks of the credentials of the schemes the engine has no default for (HTTP Basic, OAuth2).
 */
import { loadBundledSpec } from "@animal-store/openapi";
import {
  type Application,
  type RunningServer as EngineRunningServer,
  type StartOptions,
  startEngine,
} from "@animal-store/openapi-engine";
import { animalStoreNames } from "./app-config.js";
import { createHandlers } from "./handlers/index.js";
import { openSqliteStore, openStore, type Store } from "./store/index.js";

/**
 * Development credentials from the environment: a real deployment checks Basic against its
 * accounts and OAuth2 tokens against its authorization server. Unset, nothing is accepted.
 */
const basic = {
  user: process.env.FERRIES_BASIC_USER,
  password: process.env.FERRIES_BASIC_PASSWORD,
};
const oauthToken = process.env.FERRIES_OAUTH_TOKEN;

/** Harbour Ferries as an application of the engine. */
export const animalStore: Application<Store> = {
  names: animalStoreNames,
  get spec() {
    return loadBundledSpec();
  },
  openStore,
  openScratchStore: () => openSqliteStore(":memory:"),
  handlers: (store, contract) => createHandlers(store, contract.spec),
  verifiers: () => ({
    Basic: (credential) =>
      credential.kind === "basic" &&
      basic.user !== undefined &&
      credential.userId === basic.user &&
      credential.password === basic.password
        ? { subject: `user:${credential.userId}` }
        : null,
    OAuth2: (credential) =>
      credential.kind === "bearer" && oauthToken !== undefined && credential.token === oauthToken
        ? { subject: "oauth2:development", scopes: ["read", "write"] }
        : null,
  }),
};

export { configFrom } from "./app-config.js";

/** A running server. */
export type RunningServer = EngineRunningServer<Store>;

/** Starts the server on `env`; resolves once warmed up and listening. */
export function startServer(
  env: Record<string, string | undefined> = process.env,
  options: StartOptions<Store> = {},
): Promise<RunningServer> {
  return startEngine(animalStore, env, options);
}
