// What `pnpm scaffold` builds before it runs (apps/server/scripts/scaffold.mjs --prebuild): the
// types regenerated from the spec and what the scaffold reads (the contract's reader and its
// bundle), and no application, so it runs while the handlers no longer compile
// (test/scaffold.test.ts checks turbo's plan).
export const PREBUILD_TURBO_ARGS = [
  "run",
  "generate",
  "--filter=@animal-store/api-types",
  "--output-logs=errors-only",
];
