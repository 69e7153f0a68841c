/** A real `prism proxy` process in front of an upstream, validating both directions against the contract. */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { freePort } from "@animal-store/test-support/free-port";
import { bundledContractPath } from "../../src/contract-paths.js";
import { type RunningChild, startChild } from "./child-process.js";

const require = createRequire(import.meta.url);
const prismEntry = join(
  dirname(require.resolve("@stoplight/prism-cli/package.json")),
  "dist",
  "index.js",
);

/** A listening Prism proxy: send requests to `url` + the spec's paths (`/pets`). */
export interface PrismProxy {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `prism proxy <spec> <upstream> [--errors]` (the bundled spec unless another is given). With `errors`, any request or
 * response violation becomes an error response (Prism answers invalid requests itself); without
 * it, Prism forwards everything and lists violations in the `sl-violations` header.
 */
export async function startPrismProxy(
  upstream: string,
  errors: boolean,
  specPath = bundledContractPath(),
): Promise<PrismProxy> {
  const port = await freePort();
  const args = [prismEntry, "proxy", specPath, upstream, "-h", "127.0.0.1"];
  args.push("-p", String(port), ...(errors ? ["--errors"] : []));
  const running: RunningChild = await startChild(process.execPath, args, {
    label: `prism proxy${errors ? " --errors" : ""}`,
    ready: /Prism is listening on (http:\/\/\S+)/,
    timeoutMs: 60_000,
  });
  return { url: `http://127.0.0.1:${port}`, output: running.output, stop: running.stop };
}

/**
 * Prism's warnings that a status the server answered is not one the operation documents. Prism
 * only warns (for a non-2xx) and lets the answer through; the gate treats them as failures.
 */
export function unmatchedStatusWarnings(proxy: PrismProxy): string[] {
  return proxy
    .output()
    .split("\n")
    .filter((line) => /Unable to match the returned status code/i.test(line));
}
