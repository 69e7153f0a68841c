/**
 * What a handler that is not written yet (a `pnpm scaffold` stub) calls: it throws the engine's
 * `not_implemented` error, so the operation is answered as one without a handler is, in the
 * engine's error shape. Typed `never`, so a stub compiles whatever statuses its operation
 * declares (it need declare no 500).
 */
import { engineErrors } from "./errors.js";

/** Throws the engine's `not_implemented` error for `operationId`. */
export function notImplemented(operationId: string): never {
  throw engineErrors.notImplemented(operationId);
}
