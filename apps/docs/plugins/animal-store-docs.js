// @ts-check
// Redocly plugin of the docs page. Its decorator runs when `redocly build-docs` bundles the spec
// with apps/docs/redocly.yaml (never for openapi/'s bundle, which the server serves and the types
// are generated from): it writes each operation's `x-codeSamples` (curl and @animal-store/client)
// and appends its rate-limit policy and, if deprecated, its deprecation timeline.
import { changelogSection } from "./api-changelog.js";
import { clientSample, curlSample } from "./code-samples.js";
import { deprecationNote, rateLimitNote } from "./operation-notes.js";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Labels of the two samples, as the docs page shows them on tabs. */
export const SAMPLE_LABELS = { curl: "curl", client: "@animal-store/client" };

/** Decorates every operation of the document in place. */
export function decorate(/** @type {Record<string, any>} */ root) {
  // Redoc shows a server's description as plain text: Markdown's backticks would show literally.
  for (const server of root.servers ?? []) {
    if (typeof server.description === "string") {
      server.description = server.description.replace(/`([^`]*)`/g, "$1");
    }
  }
  if (root.info) {
    root.info.description = `${String(root.info.description ?? "").trimEnd()}\n\n${changelogSection()}`;
  }
  const policy = rateLimitNote(root);
  for (const [template, item] of Object.entries(root.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      operation["x-codeSamples"] = [
        {
          lang: "Shell",
          label: SAMPLE_LABELS.curl,
          source: curlSample(root, method, template, operation),
        },
        {
          lang: "TypeScript",
          label: SAMPLE_LABELS.client,
          source: clientSample(root, method, template, operation),
        },
      ];
      const notes = [policy, deprecationNote(operation)].filter(Boolean);
      operation.description = [String(operation.description ?? "").trimEnd(), ...notes].join(
        "\n\n",
      );
    }
  }
}

/** The plugin: `animal-store/docs-decorations`, turned on in apps/docs/redocly.yaml. */
export default function animalStoreDocsPlugin() {
  return {
    id: "animal-store",
    decorators: {
      oas3: {
        "docs-decorations": () => ({
          Root: {
            leave(/** @type {Record<string, any>} */ root) {
              decorate(root);
            },
          },
        }),
      },
    },
  };
}
