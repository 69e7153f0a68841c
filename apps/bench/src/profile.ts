/**
 * `pnpm --filter @animal-store/bench profile -- [--variant=ours-sqlite] [--scenario=list20]
 * [--seconds=10] [--top=30] [--keep=file.cpuprofile] [--compare=<dist>]`: runs one variant
 * (`ours-before` is the `--compare` build) under `node --cpu-prof` with wrk on one scenario, then prints
 * where the server's time went. This is how the server's per-request work was found and trimmed.
 */

import { copyFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { basePath } from "./base-path.js";
import { cleanUpWhenStopped, installCleanup, stopAll } from "./processes.js";
import { type CpuProfile, summariseProfile } from "./profile-summary.js";
import { SCENARIOS, seed } from "./server-bench.js";
import { createVariantSpecs } from "./variant-env.js";
import { startVariant, stopVariant, type VariantId, warmFetch } from "./variant-process.js";
import { runWrk } from "./wrk.js";

const option = (name: string, dflt: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;

async function main(): Promise<void> {
  installCleanup(5 * 60_000);
  const variantId = option("variant", "ours-sqlite") as VariantId;
  const scenario = SCENARIOS.find((s) => s.id === option("scenario", "list20"));
  const seconds = Number(option("seconds", "10"));
  if (scenario === undefined)
    throw new Error(`--scenario is one of ${SCENARIOS.map((s) => s.id).join(", ")}`);
  const scratchDir = await mkdtemp(join(tmpdir(), "animal-store-profile-"));
  const compare = option("compare", "");
  const variants = await createVariantSpecs(scratchDir, compare === "" ? undefined : compare);
  // Run by stopAll, in the finally below or on Ctrl-C, SIGTERM or the time budget.
  cleanUpWhenStopped(variants.cleanup);
  cleanUpWhenStopped(() => rm(scratchDir, { recursive: true, force: true }));
  try {
    const spec = variants.specs.find((s) => s.id === variantId);
    if (spec === undefined)
      throw new Error(`no variant ${variantId} (${variants.skipped ?? "unknown id"})`);
    await warmFetch();
    const variant = await startVariant(spec.id, spec.env, `${basePath}/pets?limit=20`, [
      "--cpu-prof",
      `--cpu-prof-dir=${scratchDir}`,
    ]);
    await seed(variant, 120);
    const load = { connections: 32, threads: 1, seconds };
    const result = await runWrk(variant.url, scenario.request(variant.key), load, scratchDir);
    await stopVariant(variant);
    console.log(
      `${variantId} ${scenario.label}: ${result.reqPerSec.toFixed(0)} req/s under the profiler (it slows the server), p99 ${result.p99Ms.toFixed(2)} ms, ${result.errors} errors`,
    );
    const file = (await readdir(scratchDir)).find((name) => name.endsWith(".cpuprofile"));
    if (file === undefined) throw new Error("the server wrote no .cpuprofile");
    const keep = option("keep", "");
    if (keep !== "") {
      await copyFile(join(scratchDir, file), keep);
      console.log(`profile kept at ${keep} (open it in Chrome DevTools' Performance panel)`);
    }
    const profile = JSON.parse(await readFile(join(scratchDir, file), "utf8")) as CpuProfile;
    const summary = summariseProfile(profile, Number(option("top", "30")));
    console.log("\nself time (whole process, including start-up):");
    for (const share of summary.self)
      console.log(`${share.percent.toFixed(1).padStart(6)}%  ${share.name}`);
    console.log("\nself time per module (native frames count toward their caller's module):");
    for (const share of summary.moduleSelf) {
      console.log(`${share.percent.toFixed(1).padStart(6)}%  ${share.name}`);
    }
    console.log("\ninclusive time per module:");
    for (const share of summary.modules)
      console.log(`${share.percent.toFixed(1).padStart(6)}%  ${share.name}`);
  } finally {
    await stopAll();
  }
}

await main();
