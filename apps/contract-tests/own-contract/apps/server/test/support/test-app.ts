/**
 * Test harness: the server in-process (the engine's scratch app) on a temporary SQLite file,
 * listening on port 0. The tests `pnpm scaffold` writes start from it.
 */
import { startScratchApp } from "@animal-store/openapi-engine/testing";
import { animalStore } from "../../src/animal-store.js";

/** A running app for one suite. */
export interface TestApp {
  url: string;
  /** fetch under the API's base path. */
  api(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Starts the app with response validation on. */
export async function startTestApp(): Promise<TestApp> {
  const app = await startScratchApp(animalStore, {});
  return {
    url: app.url,
    api: (path, init = {}) => fetch(`${app.apiUrl}${path}`, init),
    close: () => app.close(),
  };
}
