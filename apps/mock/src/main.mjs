#!/usr/bin/env node
// @ts-check
// `pnpm mock`: serves the contract's named examples (or generated data with --dynamic) under the
// same `/v1/...` paths as the real server, until SIGINT or SIGTERM.
import { startMock } from "./mock-server.mjs";
import { parseMockCommand, USAGE } from "./options.mjs";

const command = parseMockCommand(process.argv.slice(2), process.env);
if (command.kind === "help") {
  console.log(USAGE);
  process.exit(0);
}
if (command.kind === "error") {
  console.error(`${command.message}\n\n${USAGE}`);
  process.exit(2);
}

const { options } = command;
/** @type {import("./mock-server.mjs").RunningMock | undefined} */
let mock;
let stopping = false;
// Installed before the server starts so that a signal never finds the process without them.
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    // Open keep-alive connections must not keep the process up past a second.
    setTimeout(() => process.exit(0), 1000).unref();
    (mock?.close() ?? Promise.resolve()).then(
      () => process.exit(0),
      () => process.exit(0),
    );
  });
}

try {
  mock = await startMock(options);
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  console.error(`The mock could not start on ${options.host}:${options.port}: ${reason}`);
  process.exit(1);
}

const mode = options.dynamic ? "generated data" : "the spec's named examples";
console.log(`Animal Store mock (Prism) serving ${mode} at ${mock.url}`);
console.log(`Point the client's baseUrl at ${mock.url}; any bearer token is accepted.`);
