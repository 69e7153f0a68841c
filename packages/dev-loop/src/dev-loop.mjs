// @ts-check
// The edit-regenerate loop: on every save under openapi/, lint → bundle → generate in-process;
// when the bundle changed, restart the services and rebuild the docs. A spec that fails lint
// changes nothing: its problems are printed and the last good build keeps running.
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { createDocsBuilder } from "./docs-builder.mjs";
import { createSpecPipeline } from "./spec-pipeline.mjs";
import { createService } from "./supervisor.mjs";
import { watchBuildDirs } from "./watch-build.mjs";
import { watchSpecDir } from "./watch-spec.mjs";

/**
 * @typedef {object} DevLoopOptions
 * @property {import("./spec-pipeline.mjs").PipelineLayout & { specDir: string }} spec
 * @property {import("./supervisor.mjs").ServiceSpec[]} services
 * @property {{ dir: string, script: string } | null} docs
 * @property {Record<string, string | undefined>} env
 * @property {(line: string) => void} [print]
 */

const ms = (/** @type {number} */ n) =>
  n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n)} ms`;

/** Starts the loop; resolves once the first build is up. */
export async function startDevLoop(/** @type {DevLoopOptions} */ options) {
  const print = options.print ?? ((line) => console.log(line));
  const pipeline = await createSpecPipeline(options.spec);
  const services = options.services.map((spec) => createService({ print, ...spec }));
  const docs = options.docs
    ? createDocsBuilder({ ...options.docs, env: options.env, print })
    : null;
  let cycle = Promise.resolve();

  /**
   * Restarts every service on the bundle now in dist/. When all answer, that bundle becomes the
   * last good one. When one does not start, the last good bundle is put back: a handoff service
   * (the server) that failed is still serving it, the others are restarted on it.
   * @returns {Promise<{ ok: boolean, parts: string[] }>}
   */
  const restartAll = async () => {
    const outcomes = await Promise.all(
      services.map(async (service) => {
        const start = performance.now();
        try {
          await service.restart();
          return { service, ok: true, text: `${service.name} in ${ms(performance.now() - start)}` };
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          return { service, ok: false, text: `${service.name} did not start on it (${reason})` };
        }
      }),
    );
    const ok = outcomes.every((outcome) => outcome.ok);
    if (ok) await pipeline.commitLastGood();
    else if (await pipeline.restoreLastGood()) {
      for (const { service, ok: started } of outcomes) {
        if (started || !service.running) {
          await service.restart().catch((error) => {
            print(`[dev] ${service.name} did not start on the last good bundle either: ${error}`);
          });
        }
      }
      const kept = outcomes.filter((outcome) => !outcome.ok).map((o) => o.service.name);
      outcomes.push({
        service: /** @type {any} */ (null),
        ok: false,
        text: `the last good bundle is back in dist/ and the last good ${kept.join(" and ")} keeps running`,
      });
    }
    for (const service of services) service.prepare();
    return { ok, parts: outcomes.map((outcome) => outcome.text) };
  };

  /** One pass after a save (or at start, with no files). */
  const rebuild = async (/** @type {string[]} */ files, /** @type {number} */ savedAt) => {
    const what = files.length
      ? `${[...new Set(files.map((file) => basename(file)))].join(", ")} saved`
      : "start";
    if (files.some((file) => basename(file) === basename(options.spec.configPath))) {
      await pipeline.reloadConfig();
    }
    const result = await pipeline.run();
    const { lint, bundle, generate } = result.timings;
    if (!result.ok) {
      print(`[dev] ${what}: ${result.stage} failed; the last good build keeps running:`);
      for (const problem of result.problems) print(`  ${problem}`);
      return;
    }
    for (const warning of result.warnings) print(`[dev] warning  ${warning}`);
    const regenerated = result.regenerated.length
      ? `, regenerated ${result.regenerated.join(", ")}`
      : "";
    const steps = `lint ${ms(lint)}, bundle ${ms(bundle)}, generate ${ms(generate)}${regenerated}`;
    const anyStopped = services.some((service) => !service.running);
    if (!result.bundleChanged && !anyStopped) {
      print(`[dev] ${what}: the bundled spec is unchanged, nothing restarted (${steps})`);
      return;
    }
    const { ok, parts } = await restartAll();
    const total = ms(Date.now() - savedAt);
    const verb = files.length ? "restarted" : "started";
    const when = files.length ? `${total} after the save` : `ready ${total} after start`;
    const head = ok ? `${verb} ${parts.join(", ")}` : parts.join("; ");
    print(`[dev] ${what}: ${head} (${steps}; ${when})`);
    docs?.rebuild();
  };

  const schedule = (/** @type {string[]} */ files, /** @type {number} */ savedAt) => {
    cycle = cycle
      .then(() => rebuild(files, savedAt))
      .catch((error) => print(`[dev] ${error?.stack ?? error}`));
    return cycle;
  };

  // The first build: services start from what is in dist/ even if the spec on disk is broken.
  const distReady = existsSync(join(options.spec.distDir, "openapi.json"));
  await schedule([], Date.now());
  if (distReady && services.some((service) => !service.running)) {
    const { parts } = await restartAll();
    print(`[dev] started on the bundle already in dist/: ${parts.join(", ")}`);
  }
  const unwatch = watchSpecDir(options.spec.specDir, (files, savedAt) => {
    schedule(files, savedAt);
  });
  // A new build of a service (`pnpm build` after editing its code) is picked up at once.
  const unwatchCode = services.map((service, index) =>
    watchBuildDirs(options.services[index]?.code ?? [], () => {
      cycle = cycle
        .then(async () => {
          const start = performance.now();
          await service.reloadCode();
          print(
            `[dev] ${service.name} code changed; restarted on it in ${ms(performance.now() - start)}`,
          );
        })
        .catch((error) =>
          print(
            `[dev] ${service.name} did not restart on its new code: ${error?.message ?? error}`,
          ),
        );
    }),
  );

  return {
    /** Resolves when the work for the saves seen so far is done (docs included). */
    async settled() {
      await cycle;
      await docs?.idle();
    },
    /** Stops watching and stops every service. */
    async stop() {
      unwatch();
      for (const stop of unwatchCode) stop();
      await cycle;
      await Promise.all(services.map((service) => service.stop()));
      await docs?.idle();
    },
  };
}
