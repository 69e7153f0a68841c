/**
 * A concrete path is matched before a templated one that would also match it, whatever their
 * order in the contract (over the widgets fixture, a concrete path added after the templated one).
 *
 * @see https://spec.openapis.org/oas/v3.1.1#paths-object
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editedFixture } from "./support/fixture-contract.js";
import { expectError, type FixtureApp, startFixtureApp } from "./support/serve.js";

const CONCRETE = "/widgets/featured";

describe("path matching", () => {
  const spec = editedFixture((s) => {
    const list = structuredClone(s.paths?.["/widgets"]?.get) as Record<string, unknown>;
    list.operationId = "featuredWidgets";
    // Added last: after /widgets/{widgetId} in the contract's order.
    (s.paths as Record<string, unknown>)[CONCRETE] = { get: list };
  });
  let app: FixtureApp;
  beforeAll(async () => {
    app = await startFixtureApp({ spec });
  });
  afterAll(() => app.close());

  it("takes the concrete path's operation, not the templated one's", async () => {
    const paths = Object.keys(spec.spec.paths ?? {});
    expect(paths.indexOf(CONCRETE)).toBeGreaterThan(paths.indexOf("/widgets/{widgetId}"));
    // The widgets application has no handler for the added operation: its own 500, where the
    // templated operation would refuse "featured" as a widgetId with a 400.
    await expectError(await app.api(CONCRETE), 500, "not_implemented");
  });

  it("still takes the templated path for every other value", async () => {
    const response = await app.api("/widgets/12345");
    expect([200, 404]).toContain(response.status);
  });
});
