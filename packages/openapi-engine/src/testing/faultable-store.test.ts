import { describe, expect, it } from "vitest";
import { faultableStore, type StoreFault } from "./faultable-store.js";

/** A store with one method of its own and one inherited, as a class-based store has. */
class Base {
  async inherited(): Promise<string> {
    return "base";
  }
}
class Store extends Base {
  readonly engine = "sqlite";
  constructor(private readonly label: string) {
    super();
  }
  async own(x: number): Promise<string> {
    return `${this.label} ${x}`;
  }
  async close(): Promise<string> {
    return `closed ${this.label}`;
  }
}

describe("faultableStore", () => {
  it("works as the store until a fault is set, then fails every method (close aside) as it says", async () => {
    let fault: StoreFault = "none";
    const store = faultableStore(new Store("real"), new Store("unreachable"), () => fault);
    expect(await store.own(1)).toBe("real 1");
    expect(await store.inherited()).toBe("base");
    expect(store.engine).toBe("sqlite");

    fault = "unexpected";
    await expect(store.own(2)).rejects.toThrow("planted failure in own");
    await expect(store.inherited()).rejects.toThrow("planted failure in inherited");
    expect(await store.close()).toBe("closed real");

    fault = "unavailable";
    expect(await store.own(3)).toBe("unreachable 3");
    fault = "none";
    expect(await store.own(4)).toBe("real 4");
  });
});
