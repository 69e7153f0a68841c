/**
 * The Redocly plugin `spec-facts` (this package's redocly.yaml, the generic lint layer, loads the
 * built `lib/plugin.js`): the spec states each fact once. Values needed in more than one place are
 * written by the bundle step from their one source (decorator `deprecation-headers`);
 * restatements in prose and examples are compared with their source by lint rules that name both
 * lines; and the statuses and headers the contract's own declarations make the server send must
 * be declared (`server-statuses`, `rate-limit-headers`). Every rule checks only what the contract
 * declares: a contract without the extensions a rule reads gets nothing from it.
 */
import { deprecationHeadersDecorator } from "./deprecation-headers.js";
import { deprecationRule } from "./deprecation-rule.js";
import { errorCodesRule } from "./error-codes-rule.js";
import { planTableRule } from "./plan-table-rule.js";
import { quotedValuesRule } from "./quoted-values-rule.js";
import { rateLimitHeadersRule } from "./rate-limit-headers-rule.js";
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
        "rate-limit-headers": rateLimitHeadersRule,
      },
    },
    decorators: {
      oas3: { "deprecation-headers": deprecationHeadersDecorator },
    },
  };
}
