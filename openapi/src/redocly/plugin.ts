/**
 * The Redocly plugin `spec-facts` (openapi/redocly.yaml loads the built `lib/redocly/plugin.js`):
 * the spec states each fact once. Values needed in more than one place are written by the bundle
 * step from their one source (decorator `deprecation-headers`); restatements in prose and examples
 * are compared with their source by lint rules that name both lines; and every status the server
 * can send must be declared (`server-statuses`).
 */
import { deprecationHeadersDecorator } from "./deprecation-headers.js";
import { deprecationRule } from "./deprecation-rule.js";
import { errorCodesRule } from "./error-codes-rule.js";
import { planTableRule } from "./plan-table-rule.js";
import { quotedValuesRule } from "./quoted-values-rule.js";
import { serverStatusesRule } from "./server-statuses-rule.js";
import { storedStringsRule } from "./stored-strings-rule.js";

/** The plugin, as Redocly loads it (the default export). */
export default function specFactsPlugin() {
  return {
    id: "spec-facts",
    rules: {
      oas3: {
        "server-statuses": serverStatusesRule,
        deprecation: deprecationRule,
        "plan-table": planTableRule,
        "error-codes": errorCodesRule,
        "quoted-values": quotedValuesRule,
        "stored-strings": storedStringsRule,
      },
    },
    decorators: {
      oas3: { "deprecation-headers": deprecationHeadersDecorator },
    },
  };
}
