/**
 * An application of the engine for the suites of a fixture contract's requests (bodies,
 * parameters): one handler for every operation, answering 200 with what it received (its query,
 * path values and body, as the engine handed them on), so a suite sees what validation accepted
 * and how it was parsed and coerced. Bytes are echoed as their length and hex; a file part as its
 * name, type and size. Keys only in the store (list-application.ts).
 */
import { type LoadedSpec, specOperations } from "@animal-store/openapi";
import type { Application } from "../../src/application.js";
import type { UploadedFile } from "../../src/request-body/media-types.js";
import type { Handler } from "../../src/responses/handler-types.js";
import { type ScratchApp, startScratchApp } from "../../src/testing/index.js";
import { type FixtureName, loadFixture } from "./fixture-contract.js";
import { type KeyOnlyStore, openKeyOnlyStore } from "./list-application.js";

function isFile(value: unknown): value is UploadedFile {
  return (
    typeof value === "object" && value !== null && Buffer.isBuffer((value as UploadedFile).data)
  );
}

/** A body as JSON can carry it: bytes as their length and hex, each file part described. */
export function echoed(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { bytes: value.length, hex: value.toString("hex") };
  if (isFile(value)) {
    return { filename: value.filename, contentType: value.contentType, size: value.data.length };
  }
  if (Array.isArray(value)) return value.map(echoed);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, echoed(v)]));
  }
  return value;
}

export function echoApplication(spec: LoadedSpec): Application<KeyOnlyStore> {
  const echo: Handler<never, never> = async ({ query, params, body, reply }) =>
    (reply as (status: number, body: unknown) => never)(200, {
      query,
      params,
      body: body === undefined ? "(none)" : echoed(body),
    });
  return {
    names: {
      service: "engine-echo",
      databaseUrl: "file:./data/engine-echo.db",
      docsHtmlPath: "./docs.html",
      docsBuildHint: "no docs here",
      redisKeyPrefix: "engine-echo:",
    },
    spec,
    openStore: async (database) => openKeyOnlyStore((database as { path: string }).path),
    openScratchStore: async () => openKeyOnlyStore(":memory:"),
    handlers: () =>
      Object.fromEntries(specOperations(spec.spec).map((op) => [op.operationId, echo])),
  };
}

/** A fixture's echo app in-process, with response validation on (the scratch app's test mode). */
export interface EchoApp {
  scratch: ScratchApp<KeyOnlyStore>;
  /** fetch under the API base, with the app's key. */
  api(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function startEchoApp(name: FixtureName): Promise<EchoApp> {
  const scratch = await startScratchApp(echoApplication(loadFixture(name)), {
    env: { API_KEY_CACHE_TTL_MS: "0" },
  });
  return {
    scratch,
    api(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has("authorization")) headers.set("authorization", `Bearer ${scratch.key}`);
      return fetch(`${scratch.apiUrl}${path}`, { ...init, headers });
    },
    close: () => scratch.close(),
  };
}
