/** What the bench reads from the bundled spec: the base path and the paged list. */
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

/** The paged list: its path, page-size query at the largest page, and its enumerated filter. */
export function pagedList() {
  const op = specOperations(spec).find((o) => operationPagination(spec, o));
  const paging = op && operationPagination(spec, op);
  if (!op || !paging) throw new Error("the contract has no operation that pages");
  const schemaOf = (name: string | undefined) =>
    deref<JsonObject>(spec, op.parameters.find((p) => p.name === name)?.schema ?? {});
  const maximum = schemaOf(paging.pageSizeParameter).maximum;
  // The filter: the one query parameter besides the cursor and the page size (the status).
  const filter = op.parameters.find(
    (p) =>
      p.in === "query" &&
      ![paging.cursorParameter, paging.pageSizeParameter].includes(String(p.name)),
  );
  const values = schemaOf(String(filter?.name)).enum;
  if (typeof maximum !== "number" || !Array.isArray(values)) {
    throw new Error("the paged list has no page size maximum or no enumerated filter");
  }
  return {
    path: `${basePath}${op.path}`,
    pageSize: `${paging.pageSizeParameter}=${maximum}`,
    maximum,
    filter: `${String(filter?.name)}=${String(values[0])}`,
    values: values.map(String),
  };
}

/** The largest page the spec's paged list answers. */
export const pageMax = pagedList().maximum;
