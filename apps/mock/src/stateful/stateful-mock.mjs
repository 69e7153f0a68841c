// @ts-check
// `pnpm mock --stateful`: the Animal Store application on the engine, as `pnpm start` runs it,
// with three differences and no code per operation: its data lives in memory (SQLite
// `:memory:`), seeded from the spec's examples and put back on restart or `POST /__mock/reset`;
// every well-formed key is accepted, on one plan; nothing of the server's environment (database,
// Redis, port) is read. Validation, paging, rate limits, deprecation, errors and every answer to
// a malformed request are the server's own: it is the same engine with the same handlers.
// Any other contract (`--spec`) runs on the same engine with the same key policy, but with the
// any-contract application (`any-contract/`) in place of the server's handlers and store.
import {
  deref,
  loadBundledSpec,
  readSpec,
  securitySchemes,
  specOperations,
  storedResources,
} from "@animal-store/openapi";
import { issueApiKey, startEngine } from "@animal-store/openapi-engine";
import { animalStore, openSqliteStore } from "@animal-store/server";
import { synthesizedObjects } from "./any-contract/answers.mjs";
import { anyContractApplication } from "./any-contract/application.mjs";
import { anyWellFormedKey } from "./key-policy.mjs";

/** Where the reset route lives: outside the base path, so it is none of the contract's paths. */
export const RESET_PATH = "/__mock/reset";

/** The engine's log level for each of the mock's (Prism's `success` is pino's `info`). */
const ENGINE_LOG_LEVEL = /** @type {const} */ ({
  trace: "trace",
  debug: "debug",
  info: "info",
  success: "info",
  warn: "warn",
  error: "error",
  fatal: "fatal",
  silent: "silent",
});

/**
 * The one stored resource of `spec` and its examples: the data the mock starts with.
 * @param {import("@animal-store/openapi").OpenApiDocument} spec
 */
export function seedOf(spec) {
  const resources = storedResources(spec);
  if (resources.length !== 1) {
    const names = resources.map((r) => r.name).join(", ") || "none";
    throw new Error(`the stateful mock stores one resource; the spec creates ${names}`);
  }
  return /** @type {import("@animal-store/openapi").StoredResource} */ (resources[0]);
}

/**
 * `count` more items of the stored resource (`--seed <n>`), synthesized from its schema, with
 * ids above the examples' highest: enough to page through.
 * @param {import("@animal-store/openapi").OpenApiDocument} spec
 * @param {import("@animal-store/openapi").StoredResource} seed
 * @param {number} count
 */
function synthesizedSeed(spec, seed, count) {
  if (count === 0) return [];
  if (!seed.name.startsWith("#/")) {
    throw new Error(`--seed <n> needs the stored resource's schema as a $ref (found ${seed.name})`);
  }
  const ids = seed.examples.map((item) => Number(item[seed.idProperty])).filter(Number.isFinite);
  const highest = Math.max(0, ...ids);
  return synthesizedObjects(spec, deref(spec, { $ref: seed.name }), count).map((item, i) => ({
    ...item,
    [seed.idProperty]: highest + 1 + i,
  }));
}

/**
 * The clock the mock runs on: `options.clock`, else time flowing from `options.now`, else real.
 * @param {{ now?: number, clock?: () => number }} options
 */
function clockOf(options) {
  if (options.clock) return options.clock;
  if (options.now === undefined) return Date.now;
  const offset = options.now - Date.now();
  return () => Date.now() + offset;
}

/**
 * Whether the Animal Store application serves `spec`: each of its operations is one of the
 * bundled contract's (an edited copy of the contract still is; a foreign contract is not).
 * @param {import("@animal-store/openapi").OpenApiDocument} spec
 */
export function isAnimalStoreContract(spec) {
  const own = new Set(specOperations(loadBundledSpec().spec).map((op) => op.operationId));
  const operations = specOperations(spec);
  return operations.length > 0 && operations.every((op) => own.has(op.operationId));
}

/**
 * The engine's environment and key policy for either application: the mock's address and log
 * level, every well-formed key a key of the chosen plan (checked at start by issuing one).
 * @param {import("../start.mjs").MockOptions} options
 * @param {() => unknown} reset puts the seed back, answering what `POST /__mock/reset` says
 */
function engineSettings(options, reset) {
  /** @type {import("@animal-store/openapi-engine").ApiKeyRecord | undefined} */
  let template;
  /** @type {import("@animal-store/openapi-engine").KeyLookup} */
  let lookup = () => null;
  const env = {
    NODE_ENV: "development",
    HOST: options.host,
    PORT: String(options.port),
    LOG_LEVEL: ENGINE_LOG_LEVEL[options.logLevel],
    // A mock has nothing to observe: no metrics listener.
    METRICS_PORT: "0",
    // A frontend on any origin may call it, as it may call Prism.
    CORS_ORIGINS: "*",
  };
  /** @type {import("@animal-store/openapi-engine").StartOptions<any>} */
  const start = {
    clock: clockOf(options),
    // The plan (default the spec's anonymous plan) and own limits are checked as `pnpm keys
    // create` checks them, by issuing one key into the in-memory store.
    beforeListen: async ({ store, contract }) => {
      const plan = options.plan ?? contract.rateLimit.anonymousPlan;
      const limits = { perMinute: options.perMinute, perDay: options.perDay };
      try {
        ({ record: template } = await issueApiKey(store, contract.rateLimit, {
          plan,
          name: "mock",
          ...limits,
        }));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`${reason} (--plan, --per-minute, --per-day)`);
      }
      lookup = anyWellFormedKey(template);
    },
    // Asked only once the server listens, after beforeListen.
    keyLookup: (token) => lookup(token),
    opsRoutes: [
      {
        path: RESET_PATH,
        method: "POST",
        handle: (_req, res) => {
          res.json(reset());
        },
      },
    ],
  };
  const key = () => /** @type {import("@animal-store/openapi-engine").ApiKeyRecord} */ (template);
  return { env, start, key };
}

/** @typedef {import("@animal-store/openapi-engine").ApiKeyRecord} ApiKeyRecord */

/**
 * The check of the schemes the engine has no default for (HTTP Basic, OAuth2, OpenID Connect), as
 * the mock's key policy checks keys: any credential of the right form is accepted, with every
 * scope the contract asks for, and counted as a key of the chosen plan (by a hash of it).
 * @param {import("@animal-store/openapi").OpenApiDocument} spec
 * @param {(token: string) => ApiKeyRecord | null} lookup the mock's key policy
 * @returns {import("@animal-store/openapi-engine").Verifiers}
 */
function anyCredential(spec, lookup) {
  const scopes = [
    ...new Set(
      specOperations(spec).flatMap((op) => op.security.flatMap((r) => Object.values(r).flat())),
    ),
  ];
  /** @type {Record<string, import("@animal-store/openapi-engine").CredentialVerifier>} */
  const verifiers = {};
  for (const [name, scheme] of Object.entries(securitySchemes(spec))) {
    const basic = scheme.type === "http" && String(scheme.scheme).toLowerCase() === "basic";
    if (!basic && scheme.type !== "oauth2" && scheme.type !== "openIdConnect") continue;
    verifiers[name] = (credential) => {
      const secret =
        credential.kind === "basic"
          ? `${credential.userId}:${credential.password}`
          : credential.kind === "bearer"
            ? credential.token
            : credential.key;
      const key = lookup(secret);
      return key === null ? null : { subject: key.id, scopes, key };
    };
  }
  return verifiers;
}

/**
 * The stateful mock of a contract other than the Animal Store's: the any-contract application.
 * @param {import("@animal-store/openapi").LoadedSpec} loaded
 * @param {import("../start.mjs").MockOptions} options
 * @returns {Promise<import("../start.mjs").RunningMock>}
 */
async function startAnyContractMock(loaded, options) {
  const mock = anyContractApplication(loaded, { seedCount: options.seedCount ?? 0 });
  const reset = () => ({ status: "reset", seeded: mock.reset() });
  const { env, start, key } = engineSettings(options, reset);
  const lookup = /** @type {(token: string) => ApiKeyRecord | null} */ (start.keyLookup);
  const application = { ...mock.application, verifiers: () => anyCredential(loaded.spec, lookup) };
  const server = await startEngine(application, env, { ...start, spec: loaded });
  const plan = key().plan;
  const limits = server.contract.rateLimit.plans[plan];
  const names = mock.resources.map((r) => r.name).join(", ") || "none";
  return {
    origin: server.url,
    url: `${server.url}${server.contract.basePath}`,
    title: String(loaded.spec.info?.title ?? "API"),
    description: `${mock.seedSize()} items of ${mock.resources.length} resources (${names}), any key on the ${plan} plan (${key().perMinute ?? limits?.perMinute} a minute)`,
    resetUrl: `${server.url}${RESET_PATH}`,
    reset: async () => {
      reset();
    },
    close: () => server.close(),
  };
}

/**
 * The Animal Store's store as this mode seeds it.
 * @typedef {import("@animal-store/server").Store & { replacePets(items: readonly Record<string, unknown>[]): void }} SeededStore
 */

/**
 * Starts the stateful mock; resolves once it listens.
 * @param {import("../start.mjs").MockOptions} options
 * @returns {Promise<import("../start.mjs").RunningMock>}
 */
export async function startStatefulMock(options) {
  const loaded = options.specPath ? readSpec(options.specPath) : loadBundledSpec();
  if (options.anyContract || !isAnimalStoreContract(loaded.spec)) {
    return startAnyContractMock(loaded, options);
  }
  const seed = seedOf(loaded.spec);
  // Typed by what this mode uses, not by the server's names: where a team's own store has
  // replaced the Animal Store's, the mock still compiles (and serves it with --any-contract).
  /** @type {Record<string, unknown>[]} */
  const pets = [...seed.examples, ...synthesizedSeed(loaded.spec, seed, options.seedCount ?? 0)];
  /** @type {SeededStore | undefined} */
  let opened;
  /** @type {import("@animal-store/openapi-engine").Application<import("@animal-store/server").Store>} */
  const application = {
    names: { ...animalStore.names, service: "animal-store-mock" },
    spec: loaded,
    async openStore() {
      opened = /** @type {SeededStore} */ (await openSqliteStore(":memory:"));
      opened.replacePets(pets);
      return opened;
    },
    openScratchStore: animalStore.openScratchStore,
    handlers: animalStore.handlers,
  };
  const reset = () => {
    opened?.replacePets(pets);
    return { status: "reset", seeded: pets.length };
  };
  const { env, start, key: keyOf } = engineSettings(options, reset);
  const server = await startEngine(application, env, { ...start, spec: loaded });
  const key = keyOf();
  const limits = server.contract.rateLimit.plans[key.plan];
  return {
    origin: server.url,
    url: `${server.url}${server.contract.basePath}`,
    description: `${seed.examples.length} examples${pets.length > seed.examples.length ? ` and ${pets.length - seed.examples.length} synthesized items` : ""} of ${seed.name} as data, any key on the ${key.plan} plan (${key.perMinute ?? limits?.perMinute} a minute)`,
    resetUrl: `${server.url}${RESET_PATH}`,
    reset: async () => {
      reset();
    },
    close: () => server.close(),
  };
}
