/**
 * What the engine's HTTP tests read off the widgets fixture instead of restating it: the base
 * path, a base path that is not it, the list's page-size bounds, an example request per operation,
 * the body limit, a valid new widget.
 */
import { deref, exampleRequest } from "@animal-store/openapi";
import type { ServedOperation } from "../../src/contract/contract.js";
import { widgetContract as contract } from "./widget-app.js";

/** The fixture's base path (`/api`). */
export const basePath = contract.basePath;

/** A base path that is not the fixture's, nor under it. */
export const otherBasePath = `${basePath}-other`;

const countParameter = deref<{ schema: { minimum: number; maximum: number } }>(
  contract.spec,
  (contract.spec.components as { parameters: Record<string, unknown> }).parameters.Count,
);

/** The list's page-size parameter and its bounds, as the fixture declares them. */
export const pageSize = {
  name: "count",
  min: countParameter.schema.minimum,
  max: countParameter.schema.maximum,
};

/** A new widget the fixture accepts, as JSON text. */
export const newWidget = (label = "Sprocket") => JSON.stringify({ label, sizeId: 1 });

/** A request of `op` built from its examples, path relative to the base path. */
export function exampleCall(op: ServedOperation): { path: string; init: RequestInit } {
  const request = exampleRequest(contract.spec, contract.basePath, op);
  return {
    path: request.path.slice(contract.basePath.length),
    init: {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
    },
  };
}
