// The built app's JavaScript stays within its budget (gzipped), as `pnpm --filter
// @animal-store/web size` reports it.
import { describe, expect, it } from "vitest";
import { JS_BUDGET_BYTES, measureBuild } from "../scripts/size.mjs";
import { builtApp } from "./support/built-app.js";

describe("the built app's size", () => {
  it("ships its JavaScript under the budget, gzipped", async () => {
    const { js, css } = measureBuild(await builtApp());
    console.log(
      `web app: JS ${js.gzipped} B gzipped (${js.bytes} B), CSS ${css.gzipped} B gzipped`,
    );
    expect(js.gzipped).toBeGreaterThan(0);
    expect(js.gzipped).toBeLessThan(JS_BUDGET_BYTES);
  });
});
