import { describe, expect, it } from "vitest";
import { dryRunStore } from "./dry-run.js";

class Counter {
  readonly engine = "sqlite";
  value = 0;
  constructor(readonly name: string) {}
  async add(n: number): Promise<string> {
    this.value += n;
    return `${this.name}:${this.value}`;
  }
  async read(): Promise<number> {
    return this.value;
  }
}

describe("dryRunStore", () => {
  it("sends every method to the scratch store until end(), then to the real one", async () => {
    const real = new Counter("real");
    const scratch = new Counter("scratch");
    const { store, end } = dryRunStore(real, scratch);
    expect(await store.add(5)).toBe("scratch:5");
    expect(await store.read()).toBe(5);
    expect(real.value).toBe(0);
    end();
    expect(await store.add(2)).toBe("real:2");
    expect(await store.read()).toBe(2);
    expect(scratch.value).toBe(5);
    expect(store.engine).toBe("sqlite");
  });
});
