#!/usr/bin/env node
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
// @ts-check
// `pnpm web`: the app's dev server (Vite, hot reload). It calls the API named by WEB_API_URL; by
// default the mock, which is started here, in this process, when nothing answers at its address.
import { fileURLToPath } from "node:url";
import { startMock } from "@animal-store/mock/src/mock-server.mjs";
import { basePathOf } from "@animal-store/mock/src/mock-spec.mjs";
import { parseMockCommand } from "@animal-store/mock/src/options.mjs";
import { createServer } from "vite";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

/** True when anything answers HTTP at `apiUrl` (a 401 from the mock or the server counts). */
async function answers(apiUrl) {
  try {
    await fetch(`${apiUrl}/pets`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/** @type {{ close(): Promise<void> } | undefined} */
let mock;
let apiUrl = process.env.WEB_API_URL?.trim();
if (apiUrl) {
  if (!(await answers(apiUrl))) {
    console.warn(
      `Nothing answers at ${apiUrl} yet (start it, e.g. pnpm start); the page will say so.`,
    );
  }
} else {
  const command = parseMockCommand([], process.env);
  if (command.kind !== "run")
    throw new Error(command.kind === "error" ? command.message : "bad MOCK_* variables");
  const spec = JSON.parse(
    await readFile(require.resolve("@animal-store/openapi/openapi.json"), "utf8"),
  );
  const { host, port } = command.options;
  apiUrl = `http://${host}:${port}${basePathOf(spec)}`;
  if (await answers(apiUrl)) {
    console.log(`Using the mock already running at ${apiUrl}`);
  } else {
    mock = await startMock(command.options);
    apiUrl = mock.url;
    console.log(`Started the mock (Prism) at ${apiUrl}; any API key works there.`);
  }
}
process.env.WEB_API_URL = apiUrl;

const port = Number(process.env.WEB_PORT || 5173);
const vite = await createServer({ root, configFile: `${root}/vite.config.ts`, server: { port } });
await vite.listen();
vite.printUrls();
const origin = vite.resolvedUrls?.local[0]?.replace(/\/$/, "") ?? `http://127.0.0.1:${port}`;
console.log(`\n  The page calls ${apiUrl}.`);
console.log(
  `  Against the real server, let this origin call it: CORS_ORIGINS=${origin} pnpm start`,
);

let stopping = false;
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    setTimeout(() => process.exit(0), 2000).unref();
    Promise.allSettled([vite.close(), mock?.close()]).then(() => process.exit(0));
  });
}
