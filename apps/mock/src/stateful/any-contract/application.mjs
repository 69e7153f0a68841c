// @ts-check
// An application of the engine for any contract, with no code per operation: the resources
// inferred from its paths (resources.mjs) kept in memory, each of their operations answered
// from that data, every other operation (and any request whose `Prefer` chooses an answer)
// answered from the contract's examples or synthesized data (answers.mjs). The engine does the
// rest as it does for a real application: validation, credentials, errors, the start-up.
import { randomUUID } from "node:crypto";
import { deref, firstExample, isJsonObject, specOperations } from "@animal-store/openapi";
import { EngineError } from "@animal-store/openapi-engine";
import { JSONSchemaFaker } from "json-schema-faker";
import {
  choosesAnswer,
  compileStaticAnswers,
  parsePrefer,
  synthesize,
  synthesizedObjects,
} from "./answers.mjs";
import { currentRequest, followRequests } from "./request-context.mjs";
import { inferResources, successOf } from "./resources.mjs";

/**
 * @typedef {Record<string, any>} Json
 * @typedef {import("@animal-store/openapi").OpenApiDocument} OpenApiDocument
 * @typedef {import("@animal-store/openapi").SpecOperation} SpecOperation
 * @typedef {import("./resources.mjs").Resource} Resource
 * @typedef {import("@animal-store/openapi-engine").ApiKeyRecord} ApiKeyRecord
 * @typedef {{ seq: number, scope: string, id: unknown, item: Json }} Entry
 * @typedef {{ entries: Map<string, Entry>, seq: number }} Collection
 * @typedef {{ resource: Resource, scope: Json, item: Json }} SeedItem
 */

/**
 * The store: the engine's API keys (the mock's key policy issues one, to check the plan) and
 * each resource's items, in memory.
 */
export class MemoryStore {
  engine = /** @type {const} */ ("sqlite");
  /** @type {Map<string, ApiKeyRecord & { keyHash: string }>} */
  keys = new Map();
  /** @type {Map<Resource, Collection>} */
  collections = new Map();

  /** @param {SeedItem[]} seed */
  constructor(seed) {
    this.fill(seed);
  }

  /** Replaces every resource's items with `seed`. */
  fill(/** @type {SeedItem[]} */ seed) {
    this.collections.clear();
    for (const { resource, scope, item } of seed) {
      const id = resource.idProperty === undefined ? undefined : item[resource.idProperty];
      this.put(resource, scope, id ?? this.newId(resource), item);
    }
  }

  collection(/** @type {Resource} */ resource) {
    const found = this.collections.get(resource);
    if (found) return found;
    /** @type {Collection} */
    const made = { entries: new Map(), seq: 0 };
    this.collections.set(resource, made);
    return made;
  }

  /**
   * A new id that fits the item path parameter's schema (README: ids).
   * @returns {unknown}
   */
  newId(/** @type {Resource} */ resource) {
    const schema = resource.idSchema;
    const entries = [...this.collection(resource).entries.values()];
    if (schema.type === "integer" || schema.type === "number") {
      const floor = typeof schema.minimum === "number" ? schema.minimum : 1;
      const highest = Math.max(
        floor - 1,
        ...entries.map((e) => Number(e.id)).filter(Number.isFinite),
      );
      return highest + 1;
    }
    const plain =
      schema.pattern === undefined && (schema.format === undefined || schema.format === "uuid");
    if (plain && (schema.maxLength === undefined || schema.maxLength >= 36)) return randomUUID();
    // A pattern or another format: a random value that fits it (json-schema-faker, Prism's own
    // generator, builds strings from patterns), drawn again while it is taken.
    const taken = new Set(entries.map((e) => String(e.id)));
    for (let attempt = 0; attempt < 100; attempt++) {
      const id = JSONSchemaFaker.generate(/** @type {any} */ (schema));
      if (!taken.has(String(id))) return id;
    }
    throw new Error(`no free id fits ${JSON.stringify(schema)}`);
  }

  /** Stores `item` under `id` in `scope` (in place when it is there, else last). */
  put(
    /** @type {Resource} */ resource,
    /** @type {Json} */ scope,
    /** @type {unknown} */ id,
    /** @type {Json} */ item,
  ) {
    const collection = this.collection(resource);
    const scopeKey = scopeKeyOf(resource, scope);
    const key = `${scopeKey}\u0000${String(id)}`;
    const stored =
      resource.idProperty === undefined ? item : { ...item, [resource.idProperty]: id };
    const before = collection.entries.get(key);
    collection.entries.set(key, {
      seq: before?.seq ?? ++collection.seq,
      scope: scopeKey,
      id,
      item: stored,
    });
    return stored;
  }

  get(/** @type {Resource} */ resource, /** @type {Json} */ scope, /** @type {unknown} */ id) {
    return this.collection(resource).entries.get(
      `${scopeKeyOf(resource, scope)}\u0000${String(id)}`,
    );
  }

  remove(/** @type {Resource} */ resource, /** @type {Json} */ scope, /** @type {unknown} */ id) {
    return this.collection(resource).entries.delete(
      `${scopeKeyOf(resource, scope)}\u0000${String(id)}`,
    );
  }

  /** The items of `scope`, in the order they were stored. */
  list(/** @type {Resource} */ resource, /** @type {Json} */ scope) {
    const scopeKey = scopeKeyOf(resource, scope);
    return [...this.collection(resource).entries.values()].filter((e) => e.scope === scopeKey);
  }

  // The engine's API keys (ApiKeyStore) and its lifecycle (StoreLifecycle).
  /** @returns {Promise<ApiKeyRecord>} */
  async insertApiKey(/** @type {import("@animal-store/openapi-engine/storage").NewApiKey} */ key) {
    const record = { ...key, revokedAt: null };
    this.keys.set(key.keyHash, record);
    const { keyHash: _hash, ...rest } = record;
    return rest;
  }
  /** @returns {Promise<ApiKeyRecord | null>} */
  async findApiKeyByHash(/** @type {string} */ keyHash) {
    const found = this.keys.get(keyHash);
    if (!found) return null;
    const { keyHash: _hash, ...rest } = found;
    return rest;
  }
  /** @returns {Promise<ApiKeyRecord[]>} */
  async listApiKeys() {
    return [...this.keys.values()].map(({ keyHash: _hash, ...rest }) => rest);
  }
  /** @returns {Promise<{ keyHash: string, record: ApiKeyRecord }[]>} */
  async listUsableApiKeys() {
    return [...this.keys.values()]
      .filter((k) => k.revokedAt === null)
      .map(({ keyHash, ...record }) => ({ keyHash, record }));
  }
  /** @returns {Promise<ApiKeyRecord | null>} */
  async revokeApiKey(/** @type {string} */ id, /** @type {string} */ revokedAt) {
    const found = [...this.keys.values()].find((k) => k.id === id);
    if (!found) return null;
    found.revokedAt ??= revokedAt;
    const { keyHash: _hash, ...rest } = found;
    return rest;
  }
  /** @returns {Promise<number>} */
  async countApiKeys() {
    return this.keys.size;
  }
  /** @returns {Promise<void>} */
  async check() {}
  /** @returns {Promise<void>} */
  async close() {}
}

/** The scope of an item: the values of its collection path's parameters. */
function scopeKeyOf(/** @type {Resource} */ resource, /** @type {Json} */ scope) {
  return JSON.stringify(resource.scopeParameters.map((name) => String(scope[name])));
}

/** The item `body` makes: the required properties it lacks synthesized (or kept from `before`). */
function completed(
  /** @type {OpenApiDocument} */ spec,
  /** @type {Resource} */ resource,
  /** @type {unknown} */ body,
  /** @type {Json | undefined} */ before,
) {
  const sent = isJsonObject(body) ? body : {};
  const required = Array.isArray(resource.itemSchema.required) ? resource.itemSchema.required : [];
  const missing = required.filter((name) => !Object.hasOwn(sent, name));
  if (missing.length === 0) return { ...sent };
  const made = before ?? /** @type {Json} */ (synthesize(spec, resource.itemSchema) ?? {});
  return {
    ...Object.fromEntries(missing.filter((n) => Object.hasOwn(made, n)).map((n) => [n, made[n]])),
    ...sent,
  };
}

/**
 * Whether an item's value matches a filter's (a list value matches any of its members).
 * @param {unknown} value
 * @param {unknown} wanted
 * @returns {boolean}
 */
function matches(value, wanted) {
  if (Array.isArray(wanted)) return wanted.some((w) => matches(value, w));
  if (Array.isArray(value)) return value.some((v) => matches(v, wanted));
  return value === wanted || String(value) === String(wanted);
}

/** A cursor: the position after the last item of a page, opaque to the client. */
const cursorOf = (/** @type {number} */ seq) => Buffer.from(`after:${seq}`).toString("base64url");
function positionOf(/** @type {string} */ cursor, /** @type {string} */ parameter) {
  const match = /^after:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match)
    throw new EngineError("validation_failed", `query/${parameter} is not a cursor this mock gave`);
  return Number(match[1]);
}

/** The examples of a resource's items its own operations give, each once (by id). */
function examplesOf(/** @type {OpenApiDocument} */ spec, /** @type {Resource} */ resource) {
  /** @type {Json[]} */
  const items = [];
  const seen = new Set();
  const add = (/** @type {unknown} */ value) => {
    if (!isJsonObject(value)) return;
    const key =
      resource.idProperty === undefined
        ? JSON.stringify(value)
        : String(value[resource.idProperty]);
    if (resource.idProperty !== undefined && value[resource.idProperty] === undefined) return;
    if (seen.has(key)) return;
    seen.add(key);
    items.push(value);
  };
  const valuesOf = (/** @type {Json} */ media) => [
    ...Object.values(isJsonObject(media?.examples) ? media.examples : {}).map(
      (e) => deref(spec, e)?.value,
    ),
    ...(media?.example === undefined ? [] : [media.example]),
  ];
  // The list's examples first: their order is the order a list shows.
  const { list, ...single } = resource.operations;
  const listed = list && successOf(spec, list);
  const listMedia = listed && Object.values(listed.response.content)[0];
  for (const value of listMedia ? valuesOf(listMedia) : []) {
    const array =
      resource.list?.itemsProperty === undefined ? value : value?.[resource.list.itemsProperty];
    if (Array.isArray(array)) for (const item of array) add(item);
  }
  for (const op of Object.values(single)) {
    const success = op && successOf(spec, op);
    const media = success && Object.values(success.response.content)[0];
    if (success?.schema?.type === "object") for (const value of valuesOf(media ?? {})) add(value);
  }
  return items;
}

/** The scope seeded items live in: each collection path parameter's example, else synthesized. */
function seedScopeOf(/** @type {OpenApiDocument} */ spec, /** @type {Resource} */ resource) {
  const parameters = Object.values(resource.operations).flatMap((op) => op?.parameters ?? []);
  return Object.fromEntries(
    resource.scopeParameters.map((name) => {
      const parameter = parameters.find((p) => p.in === "path" && p.name === name);
      return [
        name,
        firstExample(spec, /** @type {Json} */ (parameter)) ??
          synthesize(spec, deref(spec, parameter?.schema)),
      ];
    }),
  );
}

/** `count` items of `resource` synthesized from its schema, without ids (the store gives them). */
function synthesizedItems(
  /** @type {OpenApiDocument} */ spec,
  /** @type {Resource} */ resource,
  /** @type {number} */ count,
) {
  return synthesizedObjects(spec, resource.itemSchema, count).map((item) => {
    if (resource.idProperty !== undefined) delete item[resource.idProperty];
    return item;
  });
}

/**
 * The any-contract mock as an application of the engine, for `loaded`'s contract, seeded with
 * its examples and `seedCount` synthesized items per resource.
 * @param {import("@animal-store/openapi").LoadedSpec} loaded
 * @param {{ seedCount?: number }} [options]
 */
export function anyContractApplication(loaded, options = {}) {
  followRequests();
  const { spec } = loaded;
  const resources = inferResources(spec);
  const byOperation = new Map(
    resources.flatMap((resource) =>
      Object.entries(resource.operations).map(([role, op]) => [
        op?.operationId,
        { resource, role },
      ]),
    ),
  );
  const examples = new Map(resources.map((r) => [r, examplesOf(spec, r)]));

  /** Examples first, then the synthesized items (ids made when the store takes them). */
  const seedItems = () =>
    resources.flatMap((resource) => {
      const scope = seedScopeOf(spec, resource);
      return [
        ...(examples.get(resource) ?? []),
        ...synthesizedItems(spec, resource, options.seedCount ?? 0),
      ].map((item) => ({ resource, scope, item }));
    });

  /** @type {MemoryStore[]} */
  const stores = [];
  const open = async () => {
    const store = new MemoryStore(seedItems());
    stores.push(store);
    return store;
  };
  const slug = String(spec.info?.title ?? "api")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

  /** @type {import("@animal-store/openapi-engine").Application<MemoryStore>} */
  const application = {
    names: {
      service: `${slug || "api"}-mock`,
      databaseUrl: "file::memory:",
      // No docs page is built for an arbitrary contract: /docs answers 404 with this hint.
      docsHtmlPath: "/nonexistent/any-contract-mock/docs.html",
      docsBuildHint: "the mock serves no docs page; /openapi.json is the contract",
      redisKeyPrefix: `${slug || "api"}-mock:rl:`,
    },
    spec: loaded,
    openStore: open,
    openScratchStore: async () => new MemoryStore(seedItems()),
    handlers: (store, contract) => handlersOver(store, contract.spec, contract.basePath),
  };

  /** Every operation's handler over `store`. */
  function handlersOver(
    /** @type {MemoryStore} */ store,
    /** @type {OpenApiDocument} */ served,
    /** @type {string} */ basePath,
  ) {
    /** @type {Record<string, Function>} */
    const handlers = {};
    for (const op of specOperations(served)) {
      const statics = compileStaticAnswers(served, op);
      const found = byOperation.get(op.operationId);
      const stateful =
        found && roleHandler(store, served, basePath, op, found.resource, found.role, statics);
      handlers[op.operationId] = async (/** @type {any} */ request) => {
        const context = currentRequest();
        const preference = parsePrefer(context?.request.headers.prefer);
        const answer =
          stateful && !choosesAnswer(preference)
            ? await stateful(request)
            : statics.answer(preference);
        return request.reply(answer.status, answer.body, unsetHeaders(answer.headers));
      };
    }
    return handlers;
  }

  /** The handler of `op` in its `role` on `resource`. */
  function roleHandler(
    /** @type {MemoryStore} */ store,
    /** @type {OpenApiDocument} */ served,
    /** @type {string} */ basePath,
    /** @type {SpecOperation} */ op,
    /** @type {Resource} */ resource,
    /** @type {string} */ role,
    /** @type {ReturnType<typeof compileStaticAnswers>} */ statics,
  ) {
    const success = successOf(served, op);
    const status = success?.status ?? 200;
    const answersItem = success?.schema?.type === "object";
    const documented = statics.answer();
    const headers = documented.status === status ? documented.headers : {};
    const answer = (
      /** @type {Json | undefined} */ item,
      /** @type {Record<string, string>} */ extra = {},
    ) => ({
      status,
      body: answersItem ? item : undefined,
      headers: { ...headers, ...extra },
    });
    const idOf = (/** @type {Json} */ params) =>
      params[/** @type {string} */ (resource.idParameter)];
    const missing = (/** @type {Json} */ params) => {
      // An operation that documents no 404 answers an unknown id as Prism would: its example.
      if (!statics.documents(404)) return statics.answer();
      const name = resource.itemPath ?? resource.name;
      throw new EngineError(
        "not_found",
        `Nothing at ${name} with ${resource.idParameter} ${String(idOf(params))}`,
      );
    };
    /** @returns {Record<string, string>} */
    const locationOf = (/** @type {Json} */ params, /** @type {unknown} */ id) =>
      resource.itemPath === undefined
        ? {}
        : {
            Location: `${basePath}${resource.itemPath.replace(/\{([^}]+)\}/g, (_, name) =>
              encodeURIComponent(String(name === resource.idParameter ? id : params[name])),
            )}`,
          };
    const declared = (/** @type {string} */ name) =>
      success?.response.headers.some((h) => h.name.toLowerCase() === name.toLowerCase()) ?? false;

    switch (role) {
      case "create":
        return async (/** @type {any} */ { params, body }) => {
          // An id the client sent is kept (nothing a client sent is dropped); else one is made.
          const sent = resource.idProperty === undefined ? undefined : body?.[resource.idProperty];
          const id = sent ?? store.newId(resource);
          const item = store.put(
            resource,
            params,
            id,
            completed(served, resource, body, undefined),
          );
          return answer(item, declared("location") ? locationOf(params, id) : {});
        };
      case "read":
        return async (/** @type {any} */ { params }) => {
          const entry = store.get(resource, params, idOf(params));
          return entry ? answer(entry.item) : missing(params);
        };
      case "replace":
      case "update":
        return async (/** @type {any} */ { params, body }) => {
          const entry = store.get(resource, params, idOf(params));
          if (!entry) return missing(params);
          const next =
            role === "update"
              ? { ...entry.item, ...(isJsonObject(body) ? body : {}) }
              : completed(served, resource, body, entry.item);
          return answer(store.put(resource, params, entry.id, next));
        };
      case "remove":
        return async (/** @type {any} */ { params }) => {
          const entry = store.get(resource, params, idOf(params));
          if (!entry) return missing(params);
          store.remove(resource, params, entry.id);
          return answer(entry.item);
        };
      case "list":
        return async (/** @type {any} */ { params, query }) =>
          listPage(store, served, resource, params, query, headers);
      default:
        return undefined;
    }
  }

  return {
    application,
    resources,
    /** Puts every open store back to the seed; answers how many items that is. */
    reset() {
      const seed = seedItems();
      for (const store of stores) store.fill(seed);
      return seed.length;
    },
    /** How many items the seed holds now (examples and synthesized). */
    seedSize: () => seedItems().length,
  };
}

/** One page of `resource`'s list (README: filters and paging). */
function listPage(
  /** @type {MemoryStore} */ store,
  /** @type {OpenApiDocument} */ spec,
  /** @type {Resource} */ resource,
  /** @type {Json} */ params,
  /** @type {Json} */ query,
  /** @type {Record<string, string>} */ documentedHeaders,
) {
  const shape = /** @type {import("./resources.mjs").ListShape} */ (resource.list);
  const { paging } = resource;
  const filtered = store
    .list(resource, params)
    .filter((entry) =>
      resource.filters.every(
        (name) => query[name] === undefined || matches(entry.item[name], query[name]),
      ),
    );
  const requested = paging.sizeParameter === undefined ? undefined : query[paging.sizeParameter];
  const size = Math.min(
    typeof requested === "number" ? requested : paging.defaultSize,
    shape.maxItems ?? Number.MAX_SAFE_INTEGER,
  );
  const position =
    paging.positionParameter === undefined ? undefined : query[paging.positionParameter];
  let start = 0;
  if (paging.style === "offset" && typeof position === "number") start = position;
  if (paging.style === "page" && typeof position === "number")
    start = (position - paging.firstPage) * size;
  if (paging.style === "cursor" && position !== undefined) {
    const after = positionOf(String(position), /** @type {string} */ (paging.positionParameter));
    start = filtered.findIndex((entry) => entry.seq > after);
    if (start === -1) start = filtered.length;
  }
  const page = filtered.slice(start, start + size);
  const more = start + page.length < filtered.length;
  const last = page.at(-1);
  /** @type {unknown} */
  let next;
  if (more && paging.style === "cursor" && last) next = cursorOf(last.seq);
  else if (more && paging.style === "offset") next = start + size;
  else if (more && paging.style === "page")
    next = (typeof position === "number" ? position : paging.firstPage) + 1;
  /** @type {Record<string, string>} */
  const headers = Object.fromEntries(
    Object.entries(documentedHeaders).filter(([name]) => name.toLowerCase() !== "link"),
  );
  const context = currentRequest();
  const nextUrl = (() => {
    if (next === undefined || paging.positionParameter === undefined || !context) return undefined;
    // Express has taken the base path off `url` by now; `originalUrl` is the request's own.
    const request = /** @type {{ originalUrl?: string, url?: string }} */ (context.request);
    const url = new URL(request.originalUrl ?? request.url ?? "/", "http://mock.invalid");
    url.searchParams.set(paging.positionParameter, String(next));
    return `${url.pathname}${url.search}`;
  })();
  if (shape.link && nextUrl) headers.Link = `<${nextUrl}>; rel="next"`;
  const items = page.map((entry) => entry.item);
  if (shape.itemsProperty === undefined) return { status: shape.status, body: items, headers };
  const envelope = /** @type {Json} */ (shape.envelope);
  const required = new Set(Array.isArray(envelope.required) ? envelope.required : []);
  const made = /** @type {Json} */ (synthesize(spec, envelope) ?? {});
  /** @type {Json} */
  const body = Object.fromEntries(
    [...required].filter((n) => Object.hasOwn(made, n)).map((n) => [n, made[n]]),
  );
  body[shape.itemsProperty] = items;
  const { meta } = shape;
  if (meta.total) body[meta.total] = filtered.length;
  if (meta.hasMore) body[meta.hasMore] = more;
  if (meta.offset) body[meta.offset] = start;
  if (meta.size) body[meta.size] = size;
  if (meta.page && paging.style === "page")
    body[meta.page] = typeof position === "number" ? position : paging.firstPage;
  if (meta.next) {
    const schema = deref(spec, envelope.properties[meta.next]);
    const value = schema?.type === "string" && paging.style !== "cursor" ? nextUrl : next;
    if (value !== undefined) body[meta.next] = value;
    else if (required.has(meta.next)) body[meta.next] = null;
    else delete body[meta.next];
  }
  return { status: shape.status, body, headers };
}

/** Of `headers`, those the engine has not set on the answer already. */
function unsetHeaders(/** @type {Record<string, string>} */ headers) {
  const response = currentRequest()?.response;
  const unset = Object.entries(headers).filter(([name]) => !response?.hasHeader(name));
  return unset.length === 0 ? undefined : Object.fromEntries(unset);
}
