// @ts-check
// The request a handler is answering. The engine gives a handler its validated query, path
// values and body, not the request's headers or its response; the any-contract mock needs both:
// `Prefer` chooses an answer, and a documented header is added only when the engine has not set
// it already (its rate-limit, request-id and deprecation headers). Node publishes every request
// on the `http.server.request.start` diagnostics channel just before it emits `request`, in the
// same synchronous turn, so a store entered there is the one the engine's listener, and every
// step and handler it awaits, runs in.
// @see https://nodejs.org/api/diagnostics_channel.html#built-in-channels
import { AsyncLocalStorage } from "node:async_hooks";
import * as diagnostics from "node:diagnostics_channel";

/**
 * @typedef {object} CurrentRequest
 * @property {import("node:http").IncomingMessage} request
 * @property {import("node:http").ServerResponse} response
 */

/** @type {AsyncLocalStorage<CurrentRequest>} */
const current = new AsyncLocalStorage();
let subscribed = false;

/** @param {unknown} message */
function enter(message) {
  const { request, response } = /** @type {CurrentRequest} */ (message);
  current.enterWith({ request, response });
}

/** Starts following requests (once per process; every HTTP server of the process is followed). */
export function followRequests() {
  if (subscribed) return;
  diagnostics.subscribe("http.server.request.start", enter);
  subscribed = true;
}

/** The request being answered, or undefined outside one (a handler called directly). */
export function currentRequest() {
  return current.getStore();
}
