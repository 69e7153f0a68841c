#!/usr/bin/env node
// Empties a build directory before a build, keeping the directory itself: a file a build no
// longer writes (a module that moved) must not linger in it and be found by a stale import, and
// watchers of the directory (`pnpm dev` reloads the server when its dist/ changes) keep working.
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node scripts/empty-dir.mjs <dir>");
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
