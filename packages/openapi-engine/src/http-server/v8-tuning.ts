/**
 * V8 settings the engine's server runs with, set once for the process when a server is made
 * (v8.setFlagsFromString: they act from then on).
 *
 * `--no-allocation-site-pretenuring`: V8 watches each object and array literal and, once most of
 * what one made has survived a young-generation collection, makes it in the old generation from
 * then on. Under a stream of slow requests (a page of 100 items, written out over several turns of
 * the event loop) the literals that make each request's internals (Node's own, in the request
 * and its stream) outlive a young collection, get that verdict, and keep it: afterwards every
 * request's internals are made old, die young, and hold the young objects they point to alive
 * through every young collection until a full one. On the shipped server that made POST create
 * cost more CPU after a few seconds of GET limit=100 than after GET limit=20, for as long as the
 * process ran; with pretenuring off, the same either way (apps/bench/README.md, "Pretenuring",
 * has the figures).
 */
import { setFlagsFromString } from "node:v8";

/** The flags, in the form `node` takes them. */
export const SERVING_V8_FLAGS = ["--no-allocation-site-pretenuring"] as const;

/** Sets `SERVING_V8_FLAGS` for this process (`set` is V8's, or a test's). */
export function tuneV8ForServing(set: (flags: string) => void = setFlagsFromString): void {
  for (const flag of SERVING_V8_FLAGS) set(flag);
}
