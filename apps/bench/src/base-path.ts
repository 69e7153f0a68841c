import {
  basePathOf,
  deref,
  type JsonObject,
  loadBundledSpec,
  operationPagination,
  specOperations,
} from "@animal-store/openapi";

const { spec } = loadBundledSpec();

/** The spec's base path (its `servers`' path): every request the bench sends goes under it. */
export const basePath = basePathOf(spec);

/** The largest page the spec's paged list answers (its page-size parameter's maximum). */
export const pageMax: number = (() => {
  for (const op of specOperations(spec)) {
    const paging = operationPagination(spec, op);
    const parameter = op.parameters.find((p) => p.name === paging?.pageSizeParameter);
    const maximum = deref<JsonObject | undefined>(spec, parameter?.schema)?.maximum;
    if (typeof maximum === "number") return maximum;
  }
  throw new Error("the spec has no paged list with a page-size maximum");
})();
