// The one drift gate for committed generated files: writes `fresh` to `target`, or with
// `check` writes nothing and exits 1 when the committed file differs.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, relative } from "node:path";

/** Writes a generated file, or checks that the committed one equals `fresh` (the drift gate). */
export async function writeOrCheckGenerated(target, fresh, { check }) {
  const rel = relative(process.cwd(), target);
  if (check) {
    const committed = await readFile(target, "utf8").catch(() => "");
    if (committed !== fresh) {
      console.error(
        `${rel} is out of date with openapi/openapi.yaml.\nRun \`pnpm generate\` and commit the result.`,
      );
      process.exit(1);
    }
    console.log(`${rel} matches the spec.`);
    return;
  }
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, fresh);
  console.log(`wrote ${rel}`);
}
