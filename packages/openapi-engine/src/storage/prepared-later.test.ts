import { describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../errors.js";
import { preparedLater } from "./prepared-later.js";

/** A store of any shape: its methods, inherited from a class, are gated without being listed. */
class FakeStore {
  readonly engine = "postgres";
  constructor(private readonly calls: string[]) {}
  async listWidgets(_query: { limit: number }): Promise<unknown[]> {
    this.calls.push("listWidgets");
    return [];
  }
  async createWidget(pet: { name: string; categoryId: number }) {
    this.calls.push("createWidget");
    return { id: 1, ...pet };
  }
  async check(): Promise<void> {
    this.calls.push("check");
  }
  async close(): Promise<void> {
    this.calls.push("close");
  }
}

function fakeStore(calls: string[]): FakeStore {
  return new FakeStore(calls);
}

describe("preparedLater", () => {
  it("answers StoreUnavailableError until preparation succeeds, then passes calls through", async () => {
    const calls: string[] = [];
    let databaseUp = false;
    let attempts = 0;
    const down = () => Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const store = preparedLater(
      fakeStore(calls),
      async () => {
        attempts++;
        if (!databaseUp) throw down();
      },
      30,
    );
    // Right after the failed start-up attempt: refused at once, without a new attempt.
    await expect(store.listWidgets({ limit: 1 })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(attempts).toBe(0);
    await new Promise((r) => setTimeout(r, 40));
    await expect(store.check()).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(attempts).toBeGreaterThan(0);
    expect(calls).toEqual([]);
    databaseUp = true;
    await new Promise((r) => setTimeout(r, 40));
    await expect(store.listWidgets({ limit: 1 })).resolves.toEqual([]);
    await store.check();
    const attemptsWhenReady = attempts;
    await store.createWidget({ name: "Rex", categoryId: 1 });
    expect(attempts).toBe(attemptsWhenReady);
    expect(calls).toEqual(["listWidgets", "check", "createWidget"]);
    await store.close();
    expect(calls.at(-1)).toBe("close");
    expect(store.engine).toBe("postgres");
  });

  it("retries in the background without any request", async () => {
    let attempts = 0;
    const store = preparedLater(
      fakeStore([]),
      async () => {
        attempts++;
        if (attempts < 3) throw new Error("down");
      },
      20,
    );
    await new Promise((r) => setTimeout(r, 150));
    expect(attempts).toBe(3);
    await expect(store.check()).resolves.toBeUndefined();
    await store.close();
  });
});
