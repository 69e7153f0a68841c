import { describe, expect, it } from "vitest";
import { petHash, routeOf } from "./hash-route.js";

describe("routeOf", () => {
  it("opens one animal at #/pets/<id>", () => {
    expect(routeOf(petHash(42))).toEqual({ kind: "pet", petId: 42 });
  });

  it("shows the list for anything else", () => {
    for (const hash of ["", "#/", "#/pets/0", "#/pets/abc", "#/pets/99999999999999999", "#/x"]) {
      expect(routeOf(hash), hash).toEqual({ kind: "list" });
    }
  });
});
