#!/usr/bin/env node
// @ts-check
// `pnpm mock`: serves the contract under the same `/v1/...` paths as the real server, until
// SIGINT or SIGTERM: Prism on its named examples (or generated data with --dynamic), or, with
// --stateful, the server's own engine and handlers over data in memory.
import { parseMockCommand, USAGE } from "./options.mjs";
import { startMock } from "./start.mjs";

const command = parseMockCommand(process.argv.slice(2), process.env);
if (command.kind === "help") {
  console.log(USAGE);
  process.exit(0);
}
if (command.kind === "error") {
  console.error(`mock: ${command.message} (pnpm mock --help for usage)`);
  process.exit(2);
}

const { options } = command;
/** @type {import("./start.mjs").RunningMock | undefined} */
let mock;
let stopping = false;
// Installed before the server starts so that a signal never finds the process without them.
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.on(signal, () => {
    // Ctrl-C reaches every process of the group and pnpm passes it on again: one stop is enough,
    // and the timer below bounds it.
    if (stopping) return;
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

const mode = options.stateful ? "stateful" : "Prism";
console.log(`Animal Store mock (${mode}) serving ${mock.description} at ${mock.url}`);
if (options.stateful) {
  console.log(`Point the client's baseUrl at ${mock.url}; any well-formed bearer key is accepted.`);
  console.log(`Data lives in memory until it stops; POST ${mock.resetUrl} puts the seed back.`);
} else {
  console.log(`Point the client's baseUrl at ${mock.url}; any bearer token is accepted.`);
}
