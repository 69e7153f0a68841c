/**
 * `pnpm --filter @animal-store/bench snapshot-server`: copies the server's current build to a
 * temporary directory (with a link to its node_modules) and prints the path, so that after a change
 * `pnpm bench -- --only=server --compare=<path>` measures before and after in the same rounds.
 */
import { cp, mkdtemp, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const serverDir = fileURLToPath(new URL("../../server/", import.meta.url));
const target = await mkdtemp(join(tmpdir(), "animal-store-server-snapshot-"));
await cp(join(serverDir, "dist"), join(target, "dist"), { recursive: true });
// Resolution walks up from dist/: the snapshot finds the server's own dependencies.
await symlink(join(serverDir, "node_modules"), join(target, "node_modules"));
await cp(join(serverDir, "package.json"), join(target, "package.json"));
console.log(join(target, "dist"));
