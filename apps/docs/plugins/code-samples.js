// @ts-check
// The code samples of each operation, written from the spec alone: its first server (variables at
// their defaults), the method and path, each parameter's first example and the request body's
// first example. One curl command and one TypeScript call through @animal-store/client. An
// operation that pages (`x-pagination`) shows its first page (no cursor: a client never makes one
// up), how to reach the next in curl, and the client's iterator over every page.

/** @typedef {Record<string, any>} Json */

/** Resolves a local `$ref` (`#/components/...`) of the bundled document; other values as they are. */
export function resolveRef(/** @type {Json} */ root, /** @type {Json} */ value) {
  if (!value || typeof value.$ref !== "string" || !value.$ref.startsWith("#/")) return value;
  const target = value.$ref
    .slice(2)
    .split("/")
    .reduce((node, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], root);
  if (target === undefined) throw new Error(`code samples: ${value.$ref} does not resolve`);
  return resolveRef(root, target);
}

/** The first example of a parameter or media type (`example`, else the first of `examples`). */
export function firstExample(/** @type {Json} */ root, /** @type {Json} */ holder) {
  if (holder.example !== undefined) return holder.example;
  const first = Object.values(holder.examples ?? {})[0];
  return first === undefined ? undefined : resolveRef(root, first).value;
}

/** The base URL of the spec's first server, with every variable at its default. */
export function serverUrl(/** @type {Json} */ root) {
  const server = root.servers?.[0];
  if (!server) throw new Error("code samples: the spec declares no server");
  return String(server.url).replace(/\{([^}]+)\}/g, (_, name) => {
    const variable = server.variables?.[name];
    if (variable?.default === undefined) throw new Error(`code samples: no default for {${name}}`);
    return variable.default;
  });
}

/** The cursor parameter of an operation that pages (`x-pagination`), or undefined. */
export function cursorParameter(/** @type {Json} */ operation) {
  const name = operation["x-pagination"]?.cursorParameter;
  return typeof name === "string" ? name : undefined;
}

/**
 * What a sample sends: path and query values from the parameters' examples (optional query
 * parameters without an example are left out, and so is a paging cursor: a sample shows the
 * first page) and the body's first JSON example.
 * @returns {{ path: Json, query: Json, body: unknown }}
 */
export function sampleInput(/** @type {Json} */ root, /** @type {Json} */ operation) {
  /** @type {Json} */
  const path = {};
  /** @type {Json} */
  const query = {};
  for (const ref of operation.parameters ?? []) {
    const parameter = resolveRef(root, ref);
    if (parameter.name === cursorParameter(operation) && parameter.in === "query") continue;
    const value = firstExample(root, parameter);
    if (value === undefined) {
      if (parameter.required) throw new Error(`code samples: ${parameter.name} has no example`);
      continue;
    }
    if (parameter.in === "path") path[parameter.name] = value;
    else if (parameter.in === "query") query[parameter.name] = value;
  }
  const media = resolveRef(root, operation.requestBody)?.content?.["application/json"];
  const body = media ? firstExample(root, media) : undefined;
  return { path, query, body };
}

/** A JavaScript literal for a JSON value, keys unquoted where they are identifiers. */
export function literal(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(
      ([key, item]) =>
        `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${literal(item)}`,
    );
    return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** The curl command of an operation. */
export function curlSample(
  /** @type {Json} */ root,
  /** @type {string} */ method,
  /** @type {string} */ template,
  /** @type {Json} */ operation,
) {
  const { path, query, body } = sampleInput(root, operation);
  const filled = template.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(path[name]));
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const url = `${serverUrl(root)}${filled}${search.size > 0 ? `?${search}` : ""}`;
  const lines = [
    `curl -X ${method.toUpperCase()} '${url}'`,
    `  -H "Authorization: Bearer $API_KEY"`,
  ];
  if (body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`, `  -d '${JSON.stringify(body)}'`);
  }
  if (cursorParameter(operation)) lines.push("  -i");
  const command = lines.join(" \\\n");
  return cursorParameter(operation)
    ? `${command}\n# More pages: request the target of the Link header's rel="next" (relative to\n# this URL), as it is, until a page comes without one.`
    : command;
}

/** The TypeScript call of an operation through @animal-store/client. */
export function clientSample(
  /** @type {Json} */ root,
  /** @type {string} */ method,
  /** @type {string} */ template,
  /** @type {Json} */ operation,
) {
  const { path, query, body } = sampleInput(root, operation);
  /** @type {Json} */
  const params = {};
  if (Object.keys(path).length > 0) params.path = path;
  if (Object.keys(query).length > 0) params.query = query;
  /** @type {Json} */
  const init = {};
  if (Object.keys(params).length > 0) init.params = params;
  if (body !== undefined) init.body = body;
  const lines = Object.entries(init).map(([key, value]) => `  ${key}: ${literal(value)},`);
  const preamble = [
    'import { createAnimalStoreClient } from "@animal-store/client";',
    "",
    "const client = createAnimalStoreClient({",
    `  baseUrl: ${JSON.stringify(serverUrl(root))},`,
    '  apiKey: process.env.API_KEY ?? "",',
    "});",
    "",
  ];
  if (cursorParameter(operation) && method.toLowerCase() === "get") {
    const call = `for await (const { data, meta } of client.pages(${JSON.stringify(template)}`;
    return [
      ...preamble,
      '// Every page, following each Link rel="next";',
      "// a page that fails throws an ApiError.",
      ...(lines.length > 0 ? [`${call}, {`, ...lines, "})) {"] : [`${call})) {`]),
      "  console.log(data, meta.rateLimit);",
      "}",
      "",
    ].join("\n");
  }
  const call = `await client.${method.toUpperCase()}(${JSON.stringify(template)}`;
  const invocation = lines.length > 0 ? [`${call}, {`, ...lines, "});"] : [`${call});`];
  const deprecated = operation.deprecated
    ? [
        `// Deprecated: removed on ${operation["x-sunset"]}; use ${operation["x-replacement"]} instead.`,
      ]
    : [];
  return [
    ...preamble,
    ...deprecated,
    `const { data, error, meta } = ${invocation[0]}`,
    ...invocation.slice(1),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample's own template literal
    "if (error) throw new Error(`${error.code} (request id ${meta.requestId})`);",
    "console.log(data, meta.rateLimit);",
    "",
  ].join("\n");
}
