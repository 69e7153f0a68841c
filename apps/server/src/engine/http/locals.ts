/**
 * What the engine's steps leave for each other on `res.locals`, typed once for every module
 * (Express's `Locals` interface, merged).
 */
import type { Caller } from "../auth/caller.js";
import type { CompiledOperation } from "../contract/contract.js";
import type { ApiHttpError } from "./errors.js";

declare global {
  namespace Express {
    interface Locals {
      /** Echoed as X-Request-Id; in every log line and 500 message. */
      requestId: string;
      /** performance.now() when the request arrived (access logs). */
      startedAt: number;
      /** The operation the request resolved to. */
      operation?: CompiledOperation;
      /** The path pattern's match for `operation` (raw, percent-encoded parameter values). */
      pathMatch?: RegExpExecArray;
      /** 404 or 405 when no operation matched; raised after the credential check. */
      routeError?: ApiHttpError;
      /** Who is calling (set by identifyCaller). */
      caller?: Caller;
      /** The key store failed during the lookup; answered as 503 where a key is needed. */
      keyLookupError?: unknown;
    }
  }
}
