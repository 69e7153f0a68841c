import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { BAN_DEFAULTS } from "./ban.js";

const spec = JSON.parse(
  readFileSync(
    createRequire(import.meta.url).resolve("@animal-store/openapi/openapi.json"),
    "utf8",
  ),
);

describe("BAN_DEFAULTS", () => {
  it("equals info.x-rate-limit-ban", () => {
    expect(spec.info["x-rate-limit-ban"]).toEqual({
      rejectedRequestsBeforeBan: BAN_DEFAULTS.threshold,
      banSeconds: BAN_DEFAULTS.seconds,
    });
  });

  it("equals the ban rule in the description's prose", () => {
    const prose = (spec.info.description as string).replace(/\s+/g, " ");
    const rule =
      /sends (\d+) more requests while it is limited in the same window is banned for (\d+) seconds/.exec(
        prose,
      );
    expect(rule?.slice(1).map(Number)).toEqual([BAN_DEFAULTS.threshold, BAN_DEFAULTS.seconds]);
    expect(prose).toContain(`the ${BAN_DEFAULTS.threshold}th further request over the limit`);
  });
});
