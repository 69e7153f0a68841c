import { describe, expect, it } from "vitest";
import { methodNames } from "./method-names.js";

class Base {
  base(): void {}
  shared(): void {}
}
class Derived extends Base {
  field = 1;
  arrow = () => 2;
  derived(): void {}
  override shared(): void {}
}

describe("methodNames", () => {
  it("lists own and inherited methods once, function-valued fields too, never constructor", () => {
    expect(methodNames(new Derived()).sort()).toEqual(["arrow", "base", "derived", "shared"]);
    expect(methodNames({ a: () => 1, b: 2 })).toEqual(["a"]);
  });
});
