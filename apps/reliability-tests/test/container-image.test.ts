/**
 * The server image (deploy/Dockerfile, built by deploy/build-image.sh from the artifact) built and
 * run with podman: its healthcheck on /readyz passes, the API answers on the published port, the
 * server runs as PID 1 under a non-root user, and a stop (SIGTERM) drains and exits 0. Node comes
 * from deploy/node-image.sh (this machine reaches no image registry). Runs where podman is
 * installed (.ci/run installs it); skipped elsewhere, saying so.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { basePathOf, loadBundledSpec } from "@animal-store/openapi";
import { freePort } from "@animal-store/test-support/free-port";
import { turboHashedEnv } from "@animal-store/test-support/turbo-env";
import { afterAll, expect, it } from "vitest";
import { contractLimits } from "../src/contract-limits.js";
import { waitForHttp } from "../src/server-process.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const env = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "/root",
  CONTAINERS_CONF: `${REPO}.ci/containers.conf`,
  // So the image build's `pnpm artifact` finds this run's builds instead of rewriting them under
  // the suites running beside this one (test-support/turbo-env).
  ...turboHashedEnv(),
};

function run(command: string, args: string[], extra: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: REPO, env: { ...env, ...extra }, timeout: 600_000, maxBuffer: 1 << 26 },
      (error, stdout, stderr) =>
        error
          ? reject(
              new Error(`${command} ${args.join(" ")}: ${error.message}\n${stderr.slice(-4000)}`),
            )
          : resolve(stdout.trim()),
    );
  });
}

const podman = await run("sh", ["-c", "command -v podman"]).catch(() => "");
if (!podman)
  console.warn(
    "[skipped suite] container image: not run, podman is not installed (.ci/run installs it)",
  );
const tag = `localhost/animal-store-test:${randomBytes(4).toString("hex")}`;
const name = `animal-store-test-${randomBytes(4).toString("hex")}`;

afterAll(async () => {
  if (!podman) return;
  await run("podman", ["rm", "--force", name]).catch(() => {});
  await run("podman", ["rmi", "--force", tag]).catch(() => {});
});

it.skipIf(!podman)(
  "builds from the artifact, passes its healthcheck, serves, runs as non-root PID 1, drains on stop",
  { timeout: 900_000 },
  async () => {
    const nodeImage = await run(`${REPO}deploy/node-image.sh`, []);
    await run(`${REPO}deploy/build-image.sh`, [tag], {
      ENGINE: "podman",
      NODE_IMAGE: nodeImage.split("\n").at(-1) ?? "",
    });
    const port = await freePort();
    await run("podman", [
      "run",
      "--detach",
      "--name",
      name,
      "--publish",
      `127.0.0.1:${port}:8080`,
      tag,
    ]);
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/readyz`, 60_000);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    // The image's own HEALTHCHECK command.
    await run("podman", ["healthcheck", "run", name]);
    const key = await run("podman", [
      "exec",
      name,
      "node",
      "keys.mjs",
      "create",
      "--plan",
      contractLimits().largest.name,
      "--name",
      "image",
    ]);
    const base = basePathOf(loadBundledSpec().spec);
    const pets = await fetch(`${url}${base}/pets`, { headers: { authorization: `Bearer ${key}` } });
    expect(pets.status).toBe(200);
    expect(await run("podman", ["exec", name, "id", "-u"])).toBe("10001");
    expect(await run("podman", ["exec", name, "cat", "/proc/1/cmdline"])).toMatch(/^node\0\/app/);
    await run("podman", ["stop", "--time", "15", name]);
    expect(await run("podman", ["inspect", name, "--format", "{{.State.ExitCode}}"])).toBe("0");
    const logs = await run("podman", ["logs", name]);
    expect(logs).toContain('"msg":"shutting down"');
    expect(logs).toContain('"msg":"closed"');
  },
);
