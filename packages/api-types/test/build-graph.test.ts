// Generated code is part of the build graph: every build, typecheck and test of a package that
// reads the generated types waits for `generate` (so types never lag the spec), and `generate`
// never runs beside a build of the same files (it waits for what it reads; builds wait for it).
// Read from turbo's own plan (--dry=json), not from turbo.json, so the test follows turbo's rules.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));

interface PlannedTask {
  taskId: string;
  dependencies: string[];
}

function plan(...args: string[]): Map<string, string[]> {
  const json = execFileSync(`${root}node_modules/.bin/turbo`, ["run", ...args, "--dry=json"], {
    cwd: root,
    encoding: "utf8",
    // The plan lists every input file's hash: outside a git checkout (the spec-edit drill's
    // copies) that is every file, far beyond the default 1 MiB buffer.
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const tasks = (JSON.parse(json) as { tasks: PlannedTask[] }).tasks;
  return new Map(tasks.map((task) => [task.taskId, task.dependencies]));
}

/** Every task `taskId` waits for, directly or not. */
function upstream(graph: Map<string, string[]>, taskId: string): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    for (const dep of graph.get(id) ?? []) {
      if (!seen.has(dep)) {
        seen.add(dep);
        visit(dep);
      }
    }
  };
  visit(taskId);
  return seen;
}

// Each plan is a turbo run hashing the repository's files: seconds, many more outside a git
// checkout (the spec-edit drill's copies) on a loaded machine.
const PLAN_TIMEOUT_MS = 120_000;

describe("the build graph", () => {
  it.each([
    ["build", "@animal-store/server"],
    ["build:keys", "@animal-store/server"],
    ["typecheck", "@animal-store/server"],
    ["test", "@animal-store/server"],
    ["build", "@animal-store/client"],
  ])(
    "%s of %s regenerates the types from the spec first",
    (task, pkg) => {
      const graph = plan(task, `--filter=${pkg}`);
      const before = upstream(graph, `${pkg}#${task}`);
      expect(before).toContain("@animal-store/api-types#generate");
      expect(before).toContain("@animal-store/openapi#bundle");
    },
    PLAN_TIMEOUT_MS,
  );

  it(
    "pnpm generate never builds the generated package beside its generate",
    () => {
      const graph = plan("generate");
      for (const pkg of ["@animal-store/api-types", "@animal-store/client"]) {
        const build = `${pkg}#build`;
        if (graph.has(build)) expect(upstream(graph, build)).toContain(`${pkg}#generate`);
      }
      // The client's generator imports the api-types build, which waits for api-types' generate.
      expect(upstream(graph, "@animal-store/client#generate")).toContain(
        "@animal-store/api-types#generate",
      );
    },
    PLAN_TIMEOUT_MS,
  );

  it(
    "pnpm generate and generate:check build no application (they run before its handlers compile)",
    () => {
      const apps = new Set(
        readdirSync(`${root}apps`).map(
          (dir) => JSON.parse(readFileSync(`${root}apps/${dir}/package.json`, "utf8")).name,
        ),
      );
      for (const task of ["generate", "generate:check"]) {
        const graph = plan(task);
        const built = [...graph.keys()].filter(
          (id) => id.endsWith("#build") && apps.has(id.slice(0, id.lastIndexOf("#"))),
        );
        expect(built, task).toEqual([]);
      }
    },
    PLAN_TIMEOUT_MS,
  );
});
