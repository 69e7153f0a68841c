// `pnpm scaffold` runs while the application's handlers do not compile (a spec edit removed or
// changed their operations): its pre-build regenerates the types and builds what the scaffold
// reads, and no task of an application. Read from turbo's own plan (--dry=json).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));

describe("pnpm scaffold's pre-build", () => {
  it("compiles no application (no task of a package under apps/)", () => {
    const script = JSON.parse(readFileSync(`${root}package.json`, "utf8")).scripts.scaffold;
    const turbo = /^turbo run (.*?) --output-logs/.exec(script);
    expect(turbo, script).not.toBeNull();
    const json = execFileSync(
      `${root}node_modules/.bin/turbo`,
      ["run", ...(turbo?.[1] ?? "").split(" "), "--dry=json"],
      {
        cwd: root,
        encoding: "utf8",
        maxBuffer: 512 * 1024 * 1024,
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
        stdio: ["ignore", "pipe", "ignore"],
      },
    );
    const tasks = (JSON.parse(json) as { tasks: { taskId: string; directory: string }[] }).tasks;
    expect(tasks.map((task) => task.taskId)).toContain("@animal-store/api-types#generate");
    expect(tasks.filter((task) => task.directory.startsWith("apps/")).map((t) => t.taskId)).toEqual(
      [],
    );
  });
});
