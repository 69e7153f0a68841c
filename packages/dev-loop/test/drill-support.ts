// Helpers of the drill: a scratch copy of the spec with an operation the server has no handler
// for, the server's sources typechecked and built against scratch types, and whole process trees.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { createSpecPipeline } from "../src/spec-pipeline.mjs";
import { type Json, layout, scratchSpec } from "./scratch.js";

export const repo = layout.root;
const server = layout.serverDir;

/** The operation the drill adds: listPets' copy under another path, with no handler. */
export const ADDED = { operationId: "listAnimalsDrill", path: "/animals-drill" };

/** A scratch spec (optionally with the added operation), linted, bundled and generated. */
export async function preparedScratch(withAddedOperation: boolean) {
  const scratch = scratchSpec();
  if (withAddedOperation) {
    scratch.edit((spec: Json) => {
      const op = structuredClone(spec.paths["/pets"].get);
      op.operationId = ADDED.operationId;
      op.summary = "List animals (drill)";
      spec.paths[ADDED.path] = { get: op };
    });
  }
  const result = await (await createSpecPipeline(scratch)).run();
  if (!result.ok) throw new Error(`${result.stage} failed: ${result.problems.join("\n")}`);
  return scratch;
}

/**
 * Compiles the server's sources against the scratch spec's generated types (`paths` maps
 * @animal-store/api-types to them) the way `which` does: `typecheck` (tsconfig.json, with
 * handlers.check.ts), `build` (tsconfig.build.json) or `keys` (tsconfig.keys.json). Resolves to
 * tsc's exit code and output.
 */
export async function compileServer(
  scratch: ReturnType<typeof scratchSpec>,
  which: "typecheck" | "build" | "keys",
): Promise<{ code: number; output: string }> {
  const types = join(scratch.dir, "api-types-index.ts");
  const index = readFileSync(join(repo, "packages/api-types/src/index.ts"), "utf8");
  writeFileSync(types, index.replaceAll("./generated/openapi.js", "./generated/api-types.js"));
  const base = {
    typecheck: "tsconfig.json",
    build: "tsconfig.build.json",
    keys: "tsconfig.keys.json",
  }[which];
  const config = JSON.parse(readFileSync(join(server, base), "utf8"));
  const scope =
    which === "keys"
      ? { files: config.files.map((file: string) => join(server, file)) }
      : {
          include: [join(server, "src")],
          exclude: (config.exclude ?? []).map((glob: string) => join(server, glob)),
        };
  const tsconfig = join(scratch.dir, `tsconfig.${which}.json`);
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: join(server, base),
      compilerOptions: {
        noEmit: true,
        rootDir: "/",
        // From the scratch directory, `types: ["node"]` would not find the server's @types.
        typeRoots: [join(server, "node_modules/@types")],
        paths: { "@animal-store/api-types": [types] },
      },
      ...scope,
    }),
  );
  const tsc = join(server, "node_modules/.bin/tsc");
  try {
    const { stdout } = await promisify(execFile)(tsc, ["-p", tsconfig], { cwd: server });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? 1, output: failed.stdout ?? String(error) };
  }
}

/** The processes whose process group is `pgid` (Linux /proc). */
export function processGroup(pgid: number): number[] {
  return groupMembers(pgid).map((member) => member.pid);
}

/**
 * What process group `pgid` still holds, each as "pid state ppid=N (name) command line" so that a
 * failure names it: an exited process has no command line left, but keeps its name and parent.
 * An exited process nobody reaped (state Z) counts: its parent exited without waiting for it,
 * which is how a loop that does not stop its services shows when they die on their own.
 */
export function stillInGroup(pgid: number): string[] {
  return groupMembers(pgid).map((member) => {
    let command = "";
    try {
      command = readFileSync(`/proc/${member.pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    } catch {
      // Gone meanwhile.
    }
    return `${member.pid} ${member.state} ppid=${member.ppid} (${member.name}) ${command}`.trim();
  });
}

interface GroupMember {
  pid: number;
  state: string;
  ppid: number;
  name: string;
}

function groupMembers(pgid: number): GroupMember[] {
  const members: GroupMember[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid pgrp ...: comm may hold spaces, so read after its ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid) {
        members.push({
          pid: Number(entry),
          state: fields[0] ?? "",
          ppid: Number(fields[1]),
          name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
        });
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return members;
}
