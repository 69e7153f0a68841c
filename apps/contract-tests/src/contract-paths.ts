/** Where the gates find the current bundled contract and its released copies. */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** The current contract, bundled by `pnpm bundle` into `openapi/dist/openapi.json`. */
export function bundledContractPath(): string {
  return require.resolve("@animal-store/openapi/openapi.json");
}

/** `openapi/released/`: one bundled copy per released contract version, `openapi-X.Y.Z.json`. */
export function releasedContractsDir(): string {
  return join(dirname(bundledContractPath()), "..", "released");
}

/** `openapi/arazzo/`: the Arazzo workflows that `redocly respect` runs. */
export function arazzoDir(): string {
  return join(dirname(bundledContractPath()), "..", "arazzo");
}
