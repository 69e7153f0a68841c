/** Where the gates find the current bundled contract and its released copies. */
import { dirname, join } from "node:path";
import { bundledSpecPath } from "@animal-store/openapi";

/** The current contract, bundled by `pnpm bundle` into `openapi/dist/openapi.json`. */
export function bundledContractPath(): string {
  return bundledSpecPath;
}

/** `openapi/released/`: one bundled copy per released contract version, `openapi-X.Y.Z.json`. */
export function releasedContractsDir(): string {
  return join(dirname(bundledContractPath()), "..", "released");
}

/** `openapi/arazzo/`: the Arazzo workflows that `redocly respect` runs. */
export function arazzoDir(): string {
  return join(dirname(bundledContractPath()), "..", "arazzo");
}

/** `openapi/accepted-changes.yaml`: major-rated changes accepted as fixes (accepted-changes.ts). */
export function acceptedChangesPath(): string {
  return join(dirname(bundledContractPath()), "..", "accepted-changes.yaml");
}

/** The CHANGELOG.md of @animal-store/api-types, where each release's API entry goes. */
export function apiTypesChangelogPath(): string {
  return join(dirname(bundledContractPath()), "..", "..", "packages", "api-types", "CHANGELOG.md");
}
