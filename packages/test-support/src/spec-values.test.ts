import { describe, expect, it } from "vitest";
import { operations, spec } from "./spec.js";
import {
  anonymousPlan,
  apiPath,
  basePath,
  deprecated,
  pagedList,
  plans,
  propertiesOf,
  rule,
  specLine,
} from "./spec-values.js";

describe("spec values", () => {
  it("reads the base path, plans, paging bounds and deprecations off the bundled spec", () => {
    expect(apiPath("/x")).toBe(`${basePath}/x`);
    expect(new URL(spec.servers?.[0]?.url ?? "", "http://h").pathname).toBe(basePath);
    expect(plans.map((p) => p.name)).toEqual(
      Object.keys(spec.info["x-rate-limit-plans"] as object),
    );
    expect(plans.map((p) => p.name)).toContain(anonymousPlan.name);
    const list = pagedList();
    expect(list.min).toBeLessThanOrEqual(list.defaultSize);
    expect(list.defaultSize).toBeLessThanOrEqual(list.max);
    expect(deprecated.map((d) => d.op)).toEqual(operations.filter((op) => op.deprecated));
    for (const { op, headers } of deprecated)
      expect(headers.Deprecation, op.operationId).toMatch(/^@\d+$/);
  });

  it("names the line of openapi.yaml a business rule is written on", () => {
    const path = ["info", "x-rate-limit-plans", anonymousPlan.name, "perMinute"];
    const where = specLine(path);
    expect(where).toMatch(/^openapi\/openapi\.yaml:\d+ /);
    expect(rule("the anonymous plan", path)).toContain(where);
    const { names, required } = propertiesOf(
      Object.keys(spec.components?.schemas ?? {})[0] as string,
    );
    expect(names).toEqual(expect.arrayContaining(required));
  });
});
