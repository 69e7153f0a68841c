// The one drift gate for committed generated files. Building regenerates them (turbo: every
// `build` and `typecheck` depends on `generate`), so the working copy always follows the spec and
// comparing with it would prove nothing. The gate compares what the spec at HEAD produces with the
// file committed at HEAD instead: a commit whose spec and generated files disagree fails (CI
// checks out a clean commit). While the spec has uncommitted edits the gate cannot say what will
// be committed, so it is skipped with a message; the build regenerated the file meanwhile.
import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, relative } from "node:path";

/** The files whose edits make the generated ones change, relative to the repository root. */
export const SPEC_SOURCES = ["openapi/openapi.yaml", "openapi/redocly.yaml"];

function git(cwd, args) {
  try {
    return execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return undefined;
  }
}

/**
 * What the gate compares `fresh` with: the file committed at HEAD, or (outside a git checkout,
 * or a file not committed yet) the working copy; `skip` names the spec's uncommitted edits.
 */
function committedVersion(target) {
  const cwd = dirname(target);
  const root = git(cwd, ["rev-parse", "--show-toplevel"])?.trim();
  if (!root) return { source: "working copy" };
  // Porcelain lines are "XY path": the status columns may start with a space.
  const edited = (git(root, ["status", "--porcelain", "--", ...SPEC_SOURCES]) ?? "")
    .split("\n")
    .filter((line) => line.length > 3)
    .map((line) => line.slice(3));
  if (edited.length > 0) return { skip: edited };
  const path = relative(root, target);
  const text = git(root, ["show", `HEAD:${path}`]);
  return text === undefined ? { source: "working copy" } : { text, source: "HEAD" };
}

/** Writes a generated file (only when it changed), or checks the committed one (the drift gate). */
export async function writeOrCheckGenerated(target, fresh, { check }) {
  const rel = relative(process.cwd(), target);
  const working = await readFile(target, "utf8").catch(() => "");
  if (check) {
    const committed = committedVersion(target);
    if (committed.skip) {
      console.log(
        `${rel}: generate:check skipped: ${committed.skip.join(", ")} has uncommitted edits (the build regenerated ${rel} from it; commit both, and the check compares them).`,
      );
      return;
    }
    if ((committed.text ?? working) !== fresh) {
      console.error(
        `${rel} (${committed.source}) is out of date with openapi/openapi.yaml.\nRun \`pnpm generate\` and commit the result.`,
      );
      process.exit(1);
    }
    console.log(`${rel} (${committed.source}) matches the spec.`);
    return;
  }
  // An unchanged file is left alone: its mtime is what watchers and tsc's incremental builds see.
  if (working === fresh) {
    console.log(`${rel} is up to date`);
    return;
  }
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, fresh);
  console.log(`wrote ${rel}`);
}
