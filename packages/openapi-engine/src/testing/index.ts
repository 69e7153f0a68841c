/**
 * @animal-store/openapi-engine/testing: what suites run an application of the engine with. A
 * scratch server (the real start sequence) or a scratch app (in-process, with parts of the
 * suite's own), each on a scratch SQLite file with a key; a store that fails on demand.
 */
export {
  faultableStore,
  type StoreFault,
  unreachableStore,
} from "./faultable-store.js";
export { roomiestPlan, type ScratchDirectory, scratchDirectory } from "./scratch.js";
export { type ScratchApp, type ScratchAppOptions, startScratchApp } from "./scratch-app.js";
export {
  type ScratchServer,
  type ScratchServerOptions,
  startScratchServer,
} from "./scratch-server.js";
