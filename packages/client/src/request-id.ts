import type { HeaderAccess } from "./replayable-request.js";
import { REQUEST_ID_HEADER } from "./spec-headers.js";

/** A random id for one call: a UUID where the platform has randomUUID, else 32 hex digits. */
function newRequestId(): string {
  const crypto = globalThis.crypto;
  // randomUUID exists only in secure contexts (https, localhost); getRandomValues everywhere.
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The call's `X-Request-Id`: the caller's own when it set one, else a new one set on the headers.
 * The server keeps a plain id it is sent, logs it and echoes it, so even a call that never got
 * an answer (timeout, dropped connection) can be found in the server's logs.
 */
export function ensureRequestId(headers: HeaderAccess): string {
  const given = headers.get(REQUEST_ID_HEADER);
  if (given !== null) return given;
  const id = newRequestId();
  headers.set(REQUEST_ID_HEADER, id);
  return id;
}
