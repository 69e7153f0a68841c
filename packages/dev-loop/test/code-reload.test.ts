// A service's code changing under the loop (a `pnpm build`): the standby, which imported the old
// modules, is replaced and the running instance restarted, so the new code serves at once.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@animal-store/test-support/free-port";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevLoop } from "../src/dev-loop.mjs";
import { scratchSpec } from "./scratch.js";

const scratch = scratchSpec();
const code = mkdtempSync(join(tmpdir(), "dev-loop-code-"));
const lines: string[] = [];
let port = 0;
let loop: Awaited<ReturnType<typeof startDevLoop>>;

/** The service's "build": a module the standby preloads, holding the version it answers. */
const writeVersion = (version: string) =>
  writeFileSync(join(code, "version.mjs"), `export const version = ${JSON.stringify(version)};\n`);

async function printed(predicate: (line: string) => boolean, from: number): Promise<string> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    const line = lines.slice(from).find(predicate);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not printed; the loop said:\n${lines.join("\n")}`);
}

const answer = async () => (await fetch(`http://127.0.0.1:${port}/`)).text();

describe("a service's new build", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    port = await freePort();
    writeVersion("v1");
    writeFileSync(
      join(code, "main.mjs"),
      [
        'import { createServer } from "node:http";',
        'import { version } from "./version.mjs";',
        "createServer((_req, res) => res.end(version)).listen(Number(process.env.PORT), '127.0.0.1');",
        "process.on('SIGTERM', () => process.exit(0));",
      ].join("\n"),
    );
    loop = await startDevLoop({
      spec: scratch,
      services: [
        {
          name: "svc",
          main: join(code, "main.mjs"),
          cwd: code,
          env: { ...process.env, PORT: String(port) },
          address: { host: "127.0.0.1", port },
          preload: [join(code, "version.mjs")],
          code: [code],
        },
      ],
      docs: null,
      env: process.env,
      print: (line) => lines.push(line),
    });
  }, 60_000);

  afterAll(async () => {
    await loop?.stop();
    scratch.remove();
    rmSync(code, { recursive: true, force: true });
  });

  it("serves the first build", async () => {
    expect(await answer()).toBe("v1");
  });

  it("restarts on a new build, with a standby that has not seen the old one", async () => {
    // The standby is up and has imported v1 by now; a restart through it would serve v1.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const from = lines.length;
    writeVersion("v2");
    await printed((line) => /\[dev\] svc code changed; restarted on it in/.test(line), from);
    expect(await answer()).toBe("v2");
    // And the next restart (a spec save) goes through a standby that loaded v2, not v1.
    const saved = lines.length;
    scratch.edit((spec) => {
      spec.info.description = `${spec.info.description}\nEdited by the code-reload test.`;
    });
    await printed((line) => line.includes("after the save"), saved);
    expect(await answer()).toBe("v2");
  });
});
