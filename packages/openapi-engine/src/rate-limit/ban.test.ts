import { rateLimitPolicy } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import { banSettings } from "./ban.js";

const contractBan = rateLimitPolicy(loadFixture().spec).ban;

describe("banSettings", () => {
  it("is the contract's ban rule when the operator overrides nothing", () => {
    expect(banSettings(contractBan, undefined)).toEqual(contractBan);
    expect(banSettings(contractBan, {})).toEqual(contractBan);
  });

  it("takes each number the operator sets, the other from the contract", () => {
    expect(banSettings(contractBan, { seconds: 0 })).toEqual({ ...contractBan, seconds: 0 });
    expect(banSettings(contractBan, { threshold: contractBan.threshold + 7 })).toEqual({
      ...contractBan,
      threshold: contractBan.threshold + 7,
    });
  });

  it("agrees with the ban rule in the description's prose", () => {
    const prose = (loadFixture().spec.info.description as string).replace(/\s+/g, " ");
    const rule =
      /sends (\d+) more requests while it is limited in the same window is banned for (\d+) seconds/.exec(
        prose,
      );
    expect(rule?.slice(1).map(Number)).toEqual([contractBan.threshold, contractBan.seconds]);
    expect(prose).toContain(`the ${contractBan.threshold}th further request over the limit`);
  });
});
