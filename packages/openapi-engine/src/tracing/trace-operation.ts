/** The tracing step of an operation's lifecycle (only added with tracing on, see request-tracing.ts). */

import type { ServedOperation } from "../contract/contract.js";
import { step } from "../lifecycle/lifecycle.js";
import type { Routed } from "../routing/router.js";
import type { RequestTracing } from "./request-tracing.js";

/** Names the request's span after its operation: `GET /v1/items/{itemId}`, `operation.id`. */
export function traceOperation(tracing: RequestTracing, basePath: string) {
  return step<Routed<ServedOperation>>(function traceOperation(req, res, next) {
    const { operation } = res.locals;
    tracing.operation(operation.operationId, req.method, `${basePath}${operation.path}`);
    next();
  });
}
