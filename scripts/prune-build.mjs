#!/usr/bin/env node
// Removes what a build left in its output directory for sources that no longer exist (a module
// that moved), so a stale file can never be imported. Run after `tsc`: it only deletes, and only
// files whose source is gone, so anything reading the fresh build meanwhile is not disturbed
// (emptying the directory first raced with builds running in parallel, say a test's own turbo).
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";

const [srcDir, outDir] = process.argv.slice(2);
if (!srcDir || !outDir) {
  console.error("usage: node scripts/prune-build.mjs <srcDir> <outDir>");
  process.exit(2);
}
const OUTPUT = /\.(d\.ts\.map|d\.ts|js\.map|js)$/;

function prune(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      prune(path);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true, force: true });
      continue;
    }
    const match = OUTPUT.exec(entry.name);
    if (!match) continue;
    const base = relative(outDir, path).slice(0, -match[0].length);
    const source = [".ts", ".mts", ".tsx", ".js", ".mjs"].some((ext) =>
      existsSync(join(srcDir, `${base}${ext}`)),
    );
    if (!source) rmSync(path, { force: true });
  }
}
prune(outDir);
