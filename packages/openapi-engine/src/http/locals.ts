/**
 * What the engine's steps leave for each other on `res.locals`, typed once for every module
 * (Express's `Locals` interface, merged).
 */
import type { Caller } from "../auth/caller.js";
import type { CompiledOperation } from "../contract/contract.js";
import type { EngineError } from "../errors.js";

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
      /** `Allow` of the path an OPTIONS request asked about (answered 204, never counted). */
      optionsAllow?: string;
      /** Whether the request only reads its rate-limit window (OPTIONS, ops routes): not counted. */
      uncounted?: boolean;
      /** 404 or 405 when no operation matched; raised after the credential check. */
      routeError?: EngineError;
      /** Who is calling (set by identifyCaller). */
      caller?: Caller;
      /** The key store failed during the lookup; answered as 503 where a key is needed. */
      keyLookupError?: unknown;
    }
  }
}
