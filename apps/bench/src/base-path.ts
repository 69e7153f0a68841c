import { basePathOf, loadBundledSpec } from "@animal-store/openapi";

/** The spec's base path (its `servers`' path): every request the bench sends goes under it. */
export const basePath = basePathOf(loadBundledSpec().spec);
