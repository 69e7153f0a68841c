// @ts-check
// The resources of any contract, inferred from its paths alone (README "The stateful mock for
// any contract" states the rules). A resource is a collection path `C` and its item path
// `C/{p}` (the last segment one path parameter): `POST C` creates, `GET C` lists, `GET`, `PUT`,
// `PATCH`, `DELETE C/{p}` read, replace, update and remove. It is inferred when the item path has
// one of those operations, or, with no item path, when `C` has both a list and a create. Path
// parameters before the last segment scope the items (`/members/{id}/loans`: each member's own).
// Everything is read once, at start; a handler only looks its resource up.
//
// @see https://spec.openapis.org/oas/v3.1.1#paths-object
// @see https://spec.openapis.org/oas/v3.1.1#parameter-object
import { deref, documentedResponses, isJsonObject, specOperations } from "@animal-store/openapi";

/**
 * @typedef {Record<string, any>} Json
 * @typedef {import("@animal-store/openapi").OpenApiDocument} OpenApiDocument
 * @typedef {import("@animal-store/openapi").SpecOperation} SpecOperation
 */

/**
 * How a list pages, from the names of its own query parameters (the first name of each list
 * found among the parameters that are not item properties wins).
 * @typedef {object} Paging
 * @property {"none" | "offset" | "page" | "cursor"} style
 * @property {string | undefined} sizeParameter the page size, when the list declares one
 * @property {string | undefined} positionParameter the offset, page number or cursor
 * @property {number} defaultSize the size parameter's default, else its maximum, else 20 (capped by the answer's maxItems)
 * @property {number} firstPage a page number's first value: 0 when its schema's minimum is 0, else 1
 */

/**
 * Where a list's items and what is said about them go in its answer.
 * @typedef {object} ListShape
 * @property {number} status the list's first documented success status
 * @property {string | undefined} itemsProperty undefined when the answer is the array itself
 * @property {Json | undefined} envelope the answer's object schema around the array
 * @property {Partial<Record<MetaRole, string>>} meta the envelope's properties that carry a role
 * @property {boolean} link the success answer declares a `Link` header (RFC 8288 `rel="next"`)
 * @property {number | undefined} maxItems the array's own bound
 */

/** @typedef {"total" | "next" | "hasMore" | "offset" | "size" | "page"} MetaRole */

/**
 * @typedef {object} Resource
 * @property {string} name its collection path, as the contract writes it
 * @property {string} collectionPath
 * @property {string | undefined} itemPath
 * @property {string | undefined} idParameter the item path's last parameter
 * @property {Json} idSchema its schema (an id is made to fit it), `{}` without an item path
 * @property {string | undefined} idProperty the item's property that holds the id, if any
 * @property {string[]} scopeParameters the path parameters of the collection path
 * @property {Json} itemSchema
 * @property {Partial<Record<Role, SpecOperation>>} operations
 * @property {string[]} filters the list's query parameters that name an item property
 * @property {Paging} paging
 * @property {ListShape | undefined} list
 */

/** @typedef {"create" | "list" | "read" | "replace" | "update" | "remove"} Role */

/** The page size's names; then the offset's, the page number's and the cursor's. */
export const PAGING_NAMES = {
  size: [
    "limit",
    "pageSize",
    "page_size",
    "page-size",
    "perPage",
    "per_page",
    "per-page",
    "size",
    "count",
    "maxResults",
    "max_results",
    "top",
  ],
  offset: ["offset", "skip", "start"],
  page: ["page", "pageNumber", "page_number", "page-number"],
  cursor: [
    "cursor",
    "after",
    "pageToken",
    "page_token",
    "page-token",
    "nextToken",
    "next_token",
    "continuationToken",
    "continuation",
    "startingAfter",
    "starting_after",
    "marker",
  ],
};

/** An envelope's properties, by role (the first name found wins). */
export const META_NAMES = /** @type {Record<MetaRole, string[]>} */ ({
  total: [
    "total",
    "totalCount",
    "total_count",
    "totalItems",
    "total_items",
    "totalResults",
    "total_results",
    "count",
  ],
  next: [
    "nextCursor",
    "next_cursor",
    "nextPageToken",
    "next_page_token",
    "nextToken",
    "next_token",
    "next",
    "cursor",
  ],
  hasMore: ["hasMore", "has_more", "more", "hasNext", "has_next"],
  offset: ["offset", "skip", "start"],
  size: ["limit", "pageSize", "page_size", "perPage", "per_page", "size"],
  page: ["page", "pageNumber", "page_number"],
});

const DEFAULT_PAGE_SIZE = 20;
const ITEM_ROLES = /** @type {const} */ ({
  GET: "read",
  PUT: "replace",
  PATCH: "update",
  DELETE: "remove",
});

/** The JSON media type of a content map: `application/json`, else the first `+json` one. */
export function jsonMediaOf(/** @type {Record<string, Json> | undefined} */ content) {
  if (!content) return undefined;
  const name =
    "application/json" in content
      ? "application/json"
      : Object.keys(content).find((type) => /^application\/[^;]*\+json\b/.test(type));
  return name === undefined ? undefined : { name, media: /** @type {Json} */ (content[name]) };
}

/**
 * An object schema as one object: `$ref` resolved, `allOf` parts merged (their properties and
 * required names); undefined when `raw` is no object schema.
 * @param {OpenApiDocument} spec
 * @param {unknown} raw
 * @returns {Json | undefined}
 */
export function objectSchema(spec, raw) {
  const schema = deref(spec, raw);
  if (!isJsonObject(schema)) return undefined;
  if (!Array.isArray(schema.allOf)) {
    if (schema.type === "object") return schema;
    return isJsonObject(schema.properties) ? { ...schema, type: "object" } : undefined;
  }
  const { allOf, ...own } = schema;
  const parts = [own, ...allOf.map((part) => objectSchema(spec, part))];
  if (parts.some((part) => part === undefined)) return undefined;
  const objects = /** @type {Json[]} */ (parts);
  return {
    type: "object",
    properties: Object.assign({}, ...objects.map((part) => part.properties ?? {})),
    required: [...new Set(objects.flatMap((part) => part.required ?? []))],
  };
}

/** The first documented 2xx answer of `op` and its JSON schema (resolved, `allOf` merged). */
export function successOf(/** @type {OpenApiDocument} */ spec, /** @type {SpecOperation} */ op) {
  const response = documentedResponses(spec, op).find((r) => /^2\d\d$/.test(r.status));
  if (!response) return undefined;
  const media = jsonMediaOf(response.content);
  const raw = media ? deref(spec, media.media.schema) : undefined;
  const schema = objectSchema(spec, raw) ?? raw;
  return {
    response,
    status: Number(response.status),
    schema: isJsonObject(schema) ? schema : undefined,
  };
}

/** The object schema of an item of a list answer, and where the array sits. */
function listItems(/** @type {OpenApiDocument} */ spec, /** @type {Json | undefined} */ schema) {
  if (!schema) return undefined;
  if (schema.type === "array") {
    return {
      items: objectSchema(spec, schema.items) ?? deref(spec, schema.items),
      itemsProperty: undefined,
      envelope: undefined,
      array: schema,
    };
  }
  if (!isJsonObject(schema.properties)) return undefined;
  const arrays = Object.entries(schema.properties)
    .map(([name, raw]) => /** @type {const} */ ([name, deref(spec, raw)]))
    .filter(
      ([, property]) =>
        property.type === "array" && objectSchema(spec, property.items) !== undefined,
    );
  if (arrays.length !== 1) return undefined;
  const [[name, array]] = /** @type {[[string, Json]]} */ (/** @type {unknown} */ (arrays));
  return { items: objectSchema(spec, array.items), itemsProperty: name, envelope: schema, array };
}

/** The first of `names` that `has`. */
const firstOf = (/** @type {string[]} */ names, /** @type {(name: string) => boolean} */ has) =>
  names.find(has);

/** How `list` pages (rule in PAGING_NAMES), given the item's properties. */
function pagingOf(
  /** @type {OpenApiDocument} */ spec,
  /** @type {SpecOperation | undefined} */ list,
  /** @type {Set<string>} */ properties,
  /** @type {number | undefined} */ maxItems,
) {
  const query = new Map(
    (list?.parameters ?? [])
      .filter((p) => p.in === "query" && !properties.has(String(p.name)))
      .map((p) => [String(p.name), p]),
  );
  const has = (/** @type {string} */ name) => query.has(name);
  const sizeParameter = firstOf(PAGING_NAMES.size, has);
  const sizeSchema = sizeParameter ? deref(spec, query.get(sizeParameter)?.schema) : undefined;
  const bound = (/** @type {number} */ n) => (maxItems === undefined ? n : Math.min(n, maxItems));
  const defaultSize = bound(
    typeof sizeSchema?.default === "number"
      ? sizeSchema.default
      : typeof sizeSchema?.maximum === "number"
        ? sizeSchema.maximum
        : DEFAULT_PAGE_SIZE,
  );
  const offset = firstOf(PAGING_NAMES.offset, has);
  const page = firstOf(PAGING_NAMES.page, has);
  const cursor = firstOf(PAGING_NAMES.cursor, has);
  const pageSchema = page ? deref(spec, query.get(page)?.schema) : undefined;
  /** @type {Paging["style"]} */
  const style = cursor
    ? "cursor"
    : offset
      ? "offset"
      : page
        ? "page"
        : sizeParameter
          ? "offset"
          : "none";
  return {
    style,
    sizeParameter,
    positionParameter: cursor ?? offset ?? page,
    defaultSize: style === "none" ? bound(Number.MAX_SAFE_INTEGER) : defaultSize,
    firstPage: pageSchema?.minimum === 0 ? 0 : 1,
  };
}

/** What the list's answer looks like (ListShape). */
function listShapeOf(/** @type {OpenApiDocument} */ spec, /** @type {SpecOperation} */ list) {
  const success = successOf(spec, list);
  const found = listItems(spec, success?.schema);
  if (!success || !found) return undefined;
  const envelopeProperties = new Set(Object.keys(found.envelope?.properties ?? {}));
  /** @type {Partial<Record<MetaRole, string>>} */
  const meta = {};
  for (const [role, names] of /** @type {[MetaRole, string[]][]} */ (Object.entries(META_NAMES))) {
    const name = firstOf(names, (n) => envelopeProperties.has(n) && n !== found.itemsProperty);
    if (name !== undefined && !Object.values(meta).includes(name)) meta[role] = name;
  }
  return {
    status: success.status,
    itemsProperty: found.itemsProperty,
    envelope: found.envelope,
    meta,
    link: success.response.headers.some((h) => h.name.toLowerCase() === "link"),
    maxItems: typeof found.array.maxItems === "number" ? found.array.maxItems : undefined,
  };
}

/** The path parameter names of a template, in order. */
function parametersOf(/** @type {string} */ path) {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => /** @type {string} */ (m[1]));
}

/** The collection path and parameter of an item path (`/a/{x}/b/{y}` → `/a/{x}/b`, `y`). */
function splitItemPath(/** @type {string} */ path) {
  const match = /^(.*)\/\{([^}/]+)\}$/.exec(path);
  return match
    ? { collection: match[1] || "/", parameter: /** @type {string} */ (match[2]) }
    : undefined;
}

/** The property holding the id: the parameter's name, else `id`, else the one the service assigns. */
function idPropertyOf(
  /** @type {OpenApiDocument} */ spec,
  /** @type {Json} */ item,
  /** @type {string} */ parameter,
  /** @type {SpecOperation | undefined} */ create,
) {
  const properties = isJsonObject(item.properties) ? item.properties : {};
  if (Object.hasOwn(properties, parameter)) return parameter;
  if (Object.hasOwn(properties, "id")) return "id";
  const body = deref(
    spec,
    jsonMediaOf(/** @type {Json | undefined} */ (create?.requestBody?.content))?.media.schema,
  );
  const sent = isJsonObject(body?.properties) ? body.properties : {};
  const required = Array.isArray(item.required) ? item.required.map(String) : [];
  const assigned = required.filter((name) => !Object.hasOwn(sent, name));
  return create && assigned.length === 1 ? assigned[0] : undefined;
}

/** The item schema: what reading one answers, else creating one, else an item of the list. */
function itemSchemaOf(
  /** @type {OpenApiDocument} */ spec,
  /** @type {Partial<Record<Role, SpecOperation>>} */ ops,
) {
  for (const role of /** @type {Role[]} */ (["read", "create", "replace", "update"])) {
    const op = ops[role];
    const schema = op && successOf(spec, op)?.schema;
    if (schema?.type === "object") return schema;
  }
  const listed = ops.list && listItems(spec, successOf(spec, ops.list)?.schema)?.items;
  return listed?.type === "object" ? listed : undefined;
}

/** Every resource of `spec` (see the header for the rule), in the order of its paths. */
export function inferResources(/** @type {OpenApiDocument} */ spec) {
  const operations = specOperations(spec);
  /** @type {Map<string, Partial<Record<Role, SpecOperation>> & { itemPath?: string, idParameter?: string }>} */
  const byCollection = new Map();
  const entry = (/** @type {string} */ collection) => {
    const found = byCollection.get(collection);
    if (found) return found;
    /** @type {Partial<Record<Role, SpecOperation>> & { itemPath?: string, idParameter?: string }} */
    const made = {};
    byCollection.set(collection, made);
    return made;
  };
  for (const op of operations) {
    const item = splitItemPath(op.path);
    const itemRole = ITEM_ROLES[/** @type {keyof typeof ITEM_ROLES} */ (op.method)];
    if (item && itemRole) {
      const found = entry(item.collection);
      found[itemRole] = op;
      found.itemPath = op.path;
      found.idParameter = item.parameter;
    }
  }
  for (const op of operations) {
    if (
      op.method === "POST" &&
      jsonMediaOf(/** @type {Json | undefined} */ (op.requestBody?.content))
    )
      entry(op.path).create = op;
    if (op.method === "GET" && listItems(spec, successOf(spec, op)?.schema))
      entry(op.path).list = op;
  }
  /** @type {Resource[]} */
  const resources = [];
  for (const [collection, found] of byCollection) {
    const { itemPath, idParameter, ...ops } = found;
    if (!itemPath && !(ops.create && ops.list)) continue;
    const itemSchema = itemSchemaOf(spec, ops);
    if (!itemSchema) continue;
    const properties = new Set(
      Object.keys(isJsonObject(itemSchema.properties) ? itemSchema.properties : {}),
    );
    const list = ops.list && listShapeOf(spec, ops.list);
    const idParameterObject = [ops.read, ops.replace, ops.update, ops.remove]
      .find(Boolean)
      ?.parameters.find((p) => p.in === "path" && p.name === idParameter);
    resources.push({
      name: collection,
      collectionPath: collection,
      itemPath,
      idParameter,
      idSchema: deref(spec, idParameterObject?.schema) ?? {},
      idProperty: idParameter ? idPropertyOf(spec, itemSchema, idParameter, ops.create) : undefined,
      scopeParameters: parametersOf(collection),
      itemSchema,
      operations: ops,
      filters: (ops.list?.parameters ?? [])
        .filter((p) => p.in === "query" && properties.has(String(p.name)))
        .map((p) => String(p.name)),
      paging: pagingOf(spec, ops.list, properties, list?.maxItems),
      list,
    });
  }
  return resources;
}
