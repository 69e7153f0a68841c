// @ts-check
// The code samples of each operation, written from the spec alone: its first server (variables at
// their defaults), the method and path, each parameter's first example (else its schema's default,
// first enum value or example, else a `<name>` placeholder), the request body's first example, and
// the credential of the first security scheme the operation accepts (none where it needs none). One curl command and one TypeScript call through @animal-store/client. An
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
export function sampleInput(
  /** @type {Json} */ root,
  /** @type {Json} */ operation,
  /** @type {Json[]} */ shared = [],
) {
  /** @type {Json} */
  const path = {};
  /** @type {Json} */
  const query = {};
  // The path item's parameters, overridden by the operation's own of the same name and place.
  /** @type {Map<string, Json>} */
  const parameters = new Map();
  for (const ref of [...shared, ...(operation.parameters ?? [])]) {
    const parameter = resolveRef(root, ref);
    parameters.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  for (const parameter of parameters.values()) {
    if (parameter.name === cursorParameter(operation) && parameter.in === "query") continue;
    const value = firstExample(root, parameter) ?? schemaValue(root, parameter);
    if (value === undefined) {
      if (parameter.required) {
        if (parameter.in === "path") path[parameter.name] = `<${parameter.name}>`;
        else if (parameter.in === "query") query[parameter.name] = `<${parameter.name}>`;
      }
      continue;
    }
    if (parameter.in === "path") path[parameter.name] = value;
    else if (parameter.in === "query") query[parameter.name] = value;
  }
  const media = resolveRef(root, operation.requestBody)?.content?.["application/json"];
  const body = media ? firstExample(root, media) : undefined;
  return { path, query, body };
}

/** A value the parameter's schema gives: its default, first enum value, const or example. */
function schemaValue(/** @type {Json} */ root, /** @type {Json} */ parameter) {
  const schema = resolveRef(root, parameter.schema) ?? {};
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.examples)) return schema.examples[0];
  return schema.example;
}

/**
 * How the operation's credential is sent, from the first scheme of its first requirement
 * (`security`, else the document's): curl arguments, and a query parameter for an apiKey in the
 * query. None where the operation needs no credential (or a requirement is empty).
 * @returns {{ curl: string[], query: Json }}
 */
export function credential(/** @type {Json} */ root, /** @type {Json} */ operation) {
  const requirements = operation.security ?? root.security ?? [];
  if (requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) {
    return { curl: [], query: {} };
  }
  const name = Object.keys(requirements[0])[0];
  const scheme = root.components?.securitySchemes?.[name] ?? {};
  const http = String(scheme.scheme ?? "").toLowerCase();
  if (scheme.type === "http" && http === "basic")
    return { curl: ['-u "$USER:$PASSWORD"'], query: {} };
  if (scheme.type === "http") {
    const label = http === "bearer" ? "Bearer" : scheme.scheme;
    return { curl: [`-H "Authorization: ${label} $API_KEY"`], query: {} };
  }
  if (scheme.type === "apiKey" && scheme.in === "header") {
    return { curl: [`-H "${scheme.name}: $API_KEY"`], query: {} };
  }
  if (scheme.type === "apiKey" && scheme.in === "cookie") {
    return { curl: [`-b "${scheme.name}=$API_KEY"`], query: {} };
  }
  if (scheme.type === "apiKey") return { curl: [], query: { [scheme.name]: "$API_KEY" } };
  return { curl: ['-H "Authorization: Bearer $ACCESS_TOKEN"'], query: {} };
}

/** The request body's media type other than JSON, with its first example, for curl. */
function otherBody(/** @type {Json} */ root, /** @type {Json} */ operation) {
  const content = resolveRef(root, operation.requestBody)?.content ?? {};
  if (content["application/json"]) return undefined;
  const [type, media] = Object.entries(content)[0] ?? [];
  if (!type) return undefined;
  const example = firstExample(root, media);
  if (type === "application/x-www-form-urlencoded") {
    const fields = example && typeof example === "object" ? Object.entries(example) : [];
    const properties = Object.keys(resolveRef(root, media.schema)?.properties ?? {});
    const pairs =
      fields.length > 0
        ? fields.map(([k, v]) => [k, String(v)])
        : properties.map((k) => [k, `<${k}>`]);
    return { type, args: pairs.map(([k, v]) => `--data-urlencode '${k}=${v}'`) };
  }
  return { type, args: [`--data-binary @${type === "application/pdf" ? "file.pdf" : "file"}`] };
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
  const { path, query, body } = sampleInput(root, operation, root.paths?.[template]?.parameters);
  const auth = credential(root, operation);
  const filled = template.replace(/\{([^}]+)\}/g, (_, name) =>
    /^<.*>$/.test(String(path[name])) ? path[name] : encodeURIComponent(path[name]),
  );
  const search = [
    new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString(),
    // The shell expands the key: not percent-encoded.
    ...Object.entries(auth.query).map(([k, v]) => `${encodeURIComponent(k)}=${v}`),
  ]
    .filter(Boolean)
    .join("&");
  const url = `${serverUrl(root)}${filled}${search ? `?${search}` : ""}`;
  const lines = [`curl -X ${method.toUpperCase()} '${url}'`, ...auth.curl.map((arg) => `  ${arg}`)];
  if (body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`, `  -d '${JSON.stringify(body)}'`);
  }
  const other = otherBody(root, operation);
  if (other)
    lines.push(`  -H 'Content-Type: ${other.type}'`, ...other.args.map((arg) => `  ${arg}`));
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
  const { path, query, body } = sampleInput(root, operation, root.paths?.[template]?.parameters);
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
