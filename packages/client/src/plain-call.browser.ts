/**
 * The plain call path in a browser build (package.json `browser` maps `plain-call.js` here):
 * none. Every call goes through openapi-fetch's `coreFetch`, light when no middleware is in
 * play. Why: the plain path saves CPU per call where fetch itself is JavaScript (Node's undici),
 * and would cost the browser bundle more bytes than its 9 KiB budget has left (the README says
 * both); a browser's fetch is native, so it would save less there.
 */
import type { createPlainCall as plainCallOf } from "./plain-call.js";

/** No init is plain in a browser build. */
export const isPlainInit = (): boolean => false;

/** Never called in a browser build, where no init is plain. */
export const createPlainCall = (() => undefined) as unknown as typeof plainCallOf;
