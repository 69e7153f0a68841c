/** The last steps of the router's `options` and `unmatched` lifecycles. */
import { step } from "../lifecycle/lifecycle.js";
import type { Preflight, Unmatched } from "./router.js";

/**
 * Answers OPTIONS with 204 and `Allow`, without a key (after rate limiting has read, not counted,
 * the caller's window). A CORS preflight from an allowed origin already has its headers.
 */
export const answerOptions = step<Preflight>(function answerOptions(_req, res) {
  res.statusCode = 204;
  res.setHeader("Allow", res.locals.allow);
  res.end();
});

/** Raises the 404 or 405 the router found, once the caller is identified, counted and checked. */
export const refuseUnmatched = step<Unmatched>(function refuseUnmatched(_req, res, next) {
  next(res.locals.unmatched);
});
