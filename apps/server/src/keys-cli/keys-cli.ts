/** The `keys` executable (`pnpm keys ...`); see keys-command.ts for the commands. */
import { runKeysCommand } from "./keys-command.js";

process.exitCode = await runKeysCommand(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
