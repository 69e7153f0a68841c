#!/usr/bin/env node
// @ts-check
// `pnpm web`: the app's dev server (Vite, hot reload). It calls the API named by WEB_API_URL; by
// default the mock, which is started here, in this process, when nothing answers at its address:
// the stateful mock (the server's own answers over data in memory), or Prism with WEB_MOCK=prism.

import { fileURLToPath } from "node:url";
import { parseMockCommand } from "@animal-store/mock/src/options.mjs";
import { startMock } from "@animal-store/mock/src/start.mjs";
import { createServer } from "vite";
import { apiUrlFromEnv, mockApiUrl } from "../vite/api-url.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * True when anything answers HTTP at `apiUrl` (a 401 from the mock or the server counts).
 * @param {string} apiUrl
 */
async function answers(apiUrl) {
  try {
    await fetch(`${apiUrl}/pets`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/** @type {import("@animal-store/mock/src/start.mjs").RunningMock | undefined} */
let mock;
/** @type {import("vite").ViteDevServer | undefined} */
let vite;
// Installed before anything starts, so that a signal never finds the process without them.
let stopping = false;
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.on(signal, () => {
    // Ctrl-C reaches every process of the group and pnpm passes it on again: one stop is enough,
    // and the timer below bounds it.
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), 2000).unref();
    Promise.allSettled([vite?.close(), mock?.close()]).then(() => process.exit(0));
  });
}

let apiUrl;
if (process.env.WEB_API_URL?.trim()) {
  try {
    apiUrl = apiUrlFromEnv(process.env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
  if (!(await answers(apiUrl))) {
    console.warn(
      `Nothing answers at ${apiUrl} yet (start it, e.g. pnpm start); the page will say so.`,
    );
  }
} else {
  apiUrl = mockApiUrl(process.env);
  if (await answers(apiUrl)) {
    console.log(`Using the mock already running at ${apiUrl}`);
  } else {
    const mode = process.env.WEB_MOCK?.trim() || "stateful";
    if (mode !== "stateful" && mode !== "prism") {
      console.error(`WEB_MOCK must be stateful (the default) or prism (got "${mode}")`);
      process.exit(2);
    }
    const command =
      mode === "stateful"
        ? parseMockCommand(["--stateful"], process.env)
        : parseMockCommand([], { ...process.env, MOCK_STATEFUL: undefined });
    if (command.kind !== "run") {
      console.error(
        command.kind === "error" ? command.message : "the MOCK_* variables did not parse",
      );
      process.exit(2);
    }
    mock = await startMock(command.options);
    apiUrl = mock.url;
    console.log(`Started the ${mode} mock at ${apiUrl}: ${mock.description}.`);
    console.log("  Any well-formed API key works there.");
  }
}
process.env.WEB_API_URL = apiUrl;

const port = Number(process.env.WEB_PORT || 5173);
vite = await createServer({ root, configFile: `${root}/vite.config.ts`, server: { port } });
await vite.listen();
vite.printUrls();
const origin = vite.resolvedUrls?.local[0]?.replace(/\/$/, "") ?? `http://127.0.0.1:${port}`;
console.log(`\n  The page calls ${apiUrl}.`);
console.log(
  `  Against the real server, let this origin call it: CORS_ORIGINS=${origin} pnpm start`,
);
