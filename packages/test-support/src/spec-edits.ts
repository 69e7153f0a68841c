/**
 * Edits of the contract as a person would make them in openapi/openapi.yaml: deprecate an
 * operation, move its sunset, change a plan's limits, open an operation to callers without a key, add an optional
 * response property, add an operation. Each works on the parsed document (the YAML source or the
 * bundle alike) and keeps it lint-clean, so the spec-edit tests and the CI drill can show that the
 * app built from the edited spec behaves accordingly with no code change.
 */

// biome-ignore lint/suspicious/noExplicitAny: a parsed OpenAPI document, walked dynamically.
type Json = any;

/** One edit of a parsed contract, in place. */
export type SpecEdit = (spec: Json) => void;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** The path, method and operation object of `operationId`; throws when the spec has none. */
export function findOperation(
  spec: Json,
  operationId: string,
): { path: string; method: string; op: Json } {
  for (const [path, item] of Object.entries(spec.paths ?? {}) as [string, Json][]) {
    for (const method of METHODS) {
      if (item?.[method]?.operationId === operationId) return { path, method, op: item[method] };
    }
  }
  throw new Error(`the spec has no operation ${operationId}`);
}

/** Follows a local $ref to the node it names. */
function resolveRef(spec: Json, node: Json): Json {
  let at = node;
  while (typeof at?.$ref === "string") {
    at = at.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce((acc: Json, key: string) => acc?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], spec);
  }
  return at;
}

/** Removes the header components nothing refers to any more (lint's no-unused-components). */
function dropUnusedHeaderComponents(spec: Json): void {
  const headers: Record<string, Json> = spec.components?.headers ?? {};
  for (const name of Object.keys(headers)) {
    const { [name]: _self, ...others } = headers;
    const elsewhere = JSON.stringify({
      ...spec,
      components: { ...spec.components, headers: others },
    });
    if (!elsewhere.includes(`"#/components/headers/${name}"`)) delete headers[name];
  }
}

function httpDate(date: string): string {
  return new Date(`${date}T00:00:00Z`).toUTCString();
}

/**
 * Deprecates `operationId`: `deprecated`, `x-deprecated-since`, `x-sunset`, `x-replacement`, the
 * Deprecation/Sunset/Link headers on its success responses (a Sunset header of its own, with its
 * date), and the 410 it answers from the sunset on.
 */
export function deprecate(
  operationId: string,
  dates: { since: string; sunset: string; replacement: string },
): SpecEdit {
  return (spec) => {
    const { op } = findOperation(spec, operationId);
    Object.assign(op, {
      deprecated: true,
      "x-deprecated-since": dates.since,
      "x-sunset": dates.sunset,
      "x-replacement": dates.replacement,
    });
    const sunsetHeader = `${operationId}Sunset`;
    spec.components.headers[sunsetHeader] = {
      description: `RFC 8594: ${operationId} is removed at this instant (its x-sunset).`,
      required: true,
      schema: { type: "string", const: httpDate(dates.sunset) },
      example: httpDate(dates.sunset),
    };
    const deprecationHeaders = {
      Deprecation: { $ref: "#/components/headers/Deprecation" },
      Sunset: { $ref: `#/components/headers/${sunsetHeader}` },
      Link: { $ref: "#/components/headers/Link" },
    };
    for (const [status, response] of Object.entries(op.responses) as [string, Json][]) {
      if (!/^2/.test(status)) continue;
      // A shared response is copied into the operation rather than changed for every operation.
      const own = structuredClone(resolveRef(spec, response));
      const before = own.headers?.Link ? resolveRef(spec, own.headers.Link) : undefined;
      own.headers = { ...own.headers, ...deprecationHeaders };
      if (before?.example !== undefined) {
        // A paged operation already declared `Link` (its next page): the one field now carries
        // both links (RFC 8288), so its declaration says so, and keeps the next link's example
        // (the bundle puts the successor's link in front of it). The page's component goes.
        const ownLink = `${operationId}Link`;
        spec.components.headers[ownLink] = {
          description:
            'RFC 8288, two links in one field: the replacement operation (`rel="successor-version"`, its x-replacement) on every answer, and the next page (`rel="next"`, a relative reference holding only a query) unless this is the last page.',
          required: true,
          schema: { type: "string" },
          example: before.example,
        };
        own.headers.Link = { $ref: `#/components/headers/${ownLink}` };
      }
      op.responses[status] = own;
    }
    // The headers every response of the operation declares (rate limits, request id, ...).
    const responses = Object.values(op.responses).map((r) => resolveRef(spec, r));
    const common = Object.fromEntries(
      Object.entries(responses[0]?.headers ?? {}).filter(([name]) =>
        responses.every((r: Json) => r.headers?.[name] !== undefined),
      ),
    );
    op.responses["410"] = {
      description: `The operation has passed its sunset instant (code \`gone\`).`,
      headers: { ...common, ...deprecationHeaders },
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/Error" },
          examples: {
            gone: {
              summary: `After ${dates.sunset}`,
              value: { code: "gone", message: `Removed on ${dates.sunset}.`, status: 410 },
            },
          },
        },
      },
    };
    // Last, once the 410 refers to what it needs: a component the operation no longer uses (a
    // paged list's own next-link header) goes, and so would one a bundle kept unreferenced.
    dropUnusedHeaderComponents(spec);
  };
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** `2030-12-05` as prose writes it: `5 December 2030`. */
function writtenDate(date: string): string {
  const [year, month, day] = date.split("-").map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}

/**
 * Moves a deprecated operation's sunset to `sunset`, as a person would: its `x-sunset`, and the
 * old date wherever the operation's texts, examples and `info.description` say it (both ways it is
 * written). The header values follow from `x-sunset` alone (the bundle writes them).
 */
export function moveSunset(operationId: string, sunset: string): SpecEdit {
  return (spec) => {
    const { op } = findOperation(spec, operationId);
    const old = String(op["x-sunset"]);
    const moved = (text: string) =>
      text.replaceAll(old, sunset).replaceAll(writtenDate(old), writtenDate(sunset));
    const rewrite = (node: Json): Json =>
      typeof node === "string"
        ? moved(node)
        : Array.isArray(node)
          ? node.map(rewrite)
          : node && typeof node === "object"
            ? Object.fromEntries(Object.entries(node).map(([k, v]) => [k, rewrite(v)]))
            : node;
    Object.assign(op, rewrite(op), { "x-sunset": sunset });
    spec.info.description = moved(String(spec.info.description));
  };
}

/** Sets a plan's per-minute limit in `info.x-rate-limit-plans`, and its row in the prose table. */
export function planPerMinute(plan: string, perMinute: number): SpecEdit {
  return (spec) => {
    const limits = spec.info["x-rate-limit-plans"][plan];
    if (!limits) throw new Error(`the spec has no plan ${plan}`);
    const label = plan[0]?.toUpperCase() + plan.slice(1);
    const grouped = (n: number) => n.toLocaleString("en-US");
    const row = `| ${label} | ${grouped(limits.perMinute)} | ${grouped(limits.perDay)} |`;
    limits.perMinute = perMinute;
    spec.info.description = String(spec.info.description).replace(
      row,
      `| ${label} | ${grouped(perMinute)} | ${grouped(limits.perDay)} |`,
    );
  };
}

/** Lets `operationId` be called without a credential (`security: []`). */
export function openToAnyone(operationId: string): SpecEdit {
  return (spec) => {
    findOperation(spec, operationId).op.security = [];
  };
}

/** Adds an optional property to a schema of `components.schemas`. */
export function optionalProperty(schema: string, property: string, definition: Json): SpecEdit {
  return (spec) => {
    const target = spec.components.schemas[schema];
    if (target.properties[property] !== undefined) {
      throw new Error(`${schema} already has a property ${property}: the edit would prove nothing`);
    }
    target.properties[property] = definition;
  };
}

/** Applies `edits` to a deep copy of `spec`. */
export function edited(spec: Json, ...edits: SpecEdit[]): Json {
  const copy = structuredClone(spec);
  for (const edit of edits) edit(copy);
  return copy;
}

/**
 * Adds a parameterless, bodiless read-only resource: `GET path` (`operationId`) answering a JSON
 * array of `{ id, name }` objects (schema `schemaName`), with the statuses every operation the
 * server runs must declare, the shared error responses, and named examples.
 */
export function parameterlessResource(
  path: string,
  operationId: string,
  schemaName: string,
): SpecEdit {
  return (spec) => {
    if (spec.paths[path] !== undefined) throw new Error(`the spec already has ${path}`);
    const list = findOperation(spec, "listPets").op;
    const headers = Object.fromEntries(
      Object.entries(resolveRef(spec, list.responses["200"]).headers ?? {}).filter(
        ([name]) => name !== "Link",
      ),
    );
    spec.components.schemas[schemaName] = {
      description: `One ${schemaName.toLowerCase()}.`,
      type: "object",
      additionalProperties: false,
      required: ["id", "name"],
      properties: {
        id: { type: "integer", format: "int64", minimum: 1, maximum: 9007199254740991 },
        name: {
          type: "string",
          minLength: 1,
          maxLength: 100,
          pattern: "^[^\\u0000-\\u001f\\u007f]*$",
        },
      },
    };
    // Its own 400 (the server refuses an unknown query parameter even where none is declared):
    // listPets' examples quote its own parameters.
    const own400 = `${operationId}BadRequest`;
    const listBadRequest = structuredClone(resolveRef(spec, list.responses["400"]));
    listBadRequest.description = `A query parameter ${operationId} does not take (code \`validation_failed\`).`;
    listBadRequest.content["application/json"].examples = {
      unknownParameter: {
        summary: "An unknown query parameter",
        value: {
          code: "validation_failed",
          message: "Unknown query parameter 'colour'",
          status: 400,
        },
      },
    };
    spec.components.responses[own400] = listBadRequest;
    const shared = ["401", "429", "500", "503"].filter((s) => list.responses[s]);
    spec.paths[path] = {
      get: {
        operationId,
        summary: `List ${schemaName.toLowerCase()} entries`,
        description: `Every ${schemaName.toLowerCase()}, as a bare JSON array.`,
        tags: list.tags,
        security: list.security,
        responses: {
          "200": {
            description: `Every ${schemaName.toLowerCase()}.`,
            headers,
            content: {
              "application/json": {
                schema: { type: "array", items: { $ref: `#/components/schemas/${schemaName}` } },
                examples: {
                  two: {
                    summary: "Two entries",
                    value: [
                      { id: 1, name: "Dogs" },
                      { id: 2, name: "Cats" },
                    ],
                  },
                },
              },
            },
          },
          "400": { $ref: `#/components/responses/${own400}` },
          ...Object.fromEntries(shared.map((status) => [status, list.responses[status]])),
        },
      },
    };
  };
}
