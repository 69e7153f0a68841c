// `pnpm scaffold` on scratch copies of the handler table and the store interface, with a bundle
// that has one operation more than the server: it writes the handler stub, registers it, adds the
// store signature and a test, and a second run overwrites nothing and registers nothing twice.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundledSpecPath } from "@animal-store/openapi";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM script without declarations
import { COMMANDS } from "../../../scripts/commands.mjs";
import { tempDir } from "./support/test-app.js";

const server = fileURLToPath(new URL("..", import.meta.url));
const temp = tempDir();
afterAll(() => temp.remove());

const OP = "listAnimalsScaffold";

function scratch() {
  for (const dir of ["src/handlers", "src/store"])
    mkdirSync(join(temp.dir, dir), { recursive: true });
  copyFileSync(join(server, "src/handlers/index.ts"), join(temp.dir, "src/handlers/index.ts"));
  copyFileSync(join(server, "src/store/types.ts"), join(temp.dir, "src/store/types.ts"));
  const spec = JSON.parse(readFileSync(bundledSpecPath, "utf8"));
  spec.paths["/animals-scaffold"] = { get: { ...spec.paths["/pets"].get, operationId: OP } };
  writeFileSync(join(temp.dir, "openapi.json"), JSON.stringify(spec));
}

const scaffold = () =>
  execFileSync(process.execPath, [join(server, "scripts/scaffold.mjs")], {
    env: {
      ...process.env,
      SCAFFOLD_DIR: `${temp.dir}/`,
      OPENAPI_BUNDLE: join(temp.dir, "openapi.json"),
    },
    encoding: "utf8",
  });

describe("pnpm scaffold", () => {
  it("writes a not_implemented stub, registers it, adds the store signature and a failing test", () => {
    scratch();
    const said = scaffold();
    expect(said).toContain("wrote src/handlers/list-animals-scaffold.ts");
    const stub = readFileSync(join(temp.dir, "src/handlers/list-animals-scaffold.ts"), "utf8");
    expect(stub).toContain(`export const ${OP}: HandlerFactory<"${OP}">`);
    expect(stub).toContain(`notImplemented("${OP}")`);
    const index = readFileSync(join(temp.dir, "src/handlers/index.ts"), "utf8");
    expect(index).toContain(`import { ${OP} } from "./list-animals-scaffold.js";`);
    expect(index).toMatch(
      new RegExp(`\\n {2}${OP},\\n {2}// scaffold: new handlers above this line`),
    );
    const store = readFileSync(join(temp.dir, "src/store/types.ts"), "utf8");
    // As Biome formats it (the scaffold formats what it writes): wrapped when it is long.
    expect(store).toMatch(
      new RegExp(
        `${OP}\\?\\(\\s*input: OperationInput<"${OP}">,?\\s*\\): Promise<OperationOutput<"${OP}">>;`,
      ),
    );
    const test = readFileSync(
      join(temp.dir, "test/handlers/list-animals-scaffold.test.ts"),
      "utf8",
    );
    expect(test).toContain('not.toMatchObject({ code: "not_implemented" })');
  });

  it("never overwrites a file, and registers nothing twice", () => {
    const handler = join(temp.dir, "src/handlers/list-animals-scaffold.ts");
    writeFileSync(handler, "// the developer's own body\n");
    const index = readFileSync(join(temp.dir, "src/handlers/index.ts"), "utf8");
    const store = readFileSync(join(temp.dir, "src/store/types.ts"), "utf8");
    expect(scaffold()).toContain("every operation of the spec has a handler");
    expect(readFileSync(handler, "utf8")).toBe("// the developer's own body\n");
    expect(readFileSync(join(temp.dir, "src/handlers/index.ts"), "utf8")).toBe(index);
    expect(readFileSync(join(temp.dir, "src/store/types.ts"), "utf8")).toBe(store);
    // Unregistered again (say, by hand): the existing files are named and kept.
    writeFileSync(
      join(temp.dir, "src/handlers/index.ts"),
      index
        .replace(`  ${OP},\n`, "")
        .replace(`import { ${OP} } from "./list-animals-scaffold.js";\n`, ""),
    );
    const again = scaffold();
    expect(again).toContain("src/handlers/list-animals-scaffold.ts exists, left as it is");
    expect(again).toContain("test/handlers/list-animals-scaffold.test.ts exists, left as it is");
    expect(readFileSync(handler, "utf8")).toBe("// the developer's own body\n");
    expect(existsSync(join(temp.dir, "src/handlers/index.ts"))).toBe(true);
  });
});

describe("pnpm scaffold's pre-build", () => {
  it("builds no application (no task of a package under apps/), so it runs while handlers do not compile", () => {
    const root = fileURLToPath(new URL("../../../", import.meta.url));
    const json = execFileSync(
      `${root}node_modules/.bin/turbo`,
      [...COMMANDS.scaffold.build.turbo, "--dry=json"],
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
