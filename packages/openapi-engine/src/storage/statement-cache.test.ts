import Database from "libsql";
import { describe, expect, it } from "vitest";
import { withStatementCache } from "./sqlite-database.js";

/** A real connection whose prepare calls are counted by SQL text. */
function countedConnection() {
  const db = new Database(":memory:");
  const prepared = new Map<string, number>();
  const prepare = db.prepare.bind(db);
  return {
    prepared,
    connection: {
      close: () => db.close(),
      prepare: (text: string) => {
        prepared.set(text, (prepared.get(text) ?? 0) + 1);
        return prepare(text);
      },
    },
  };
}

describe("the SQLite statement cache", () => {
  it("keeps no statement that ran once, so start-up work leaves no statement holding the connection's memory", () => {
    const { prepared, connection } = countedConnection();
    const cache = withStatementCache(connection);
    cache.prepare("create table t (x integer)").run([]);
    // Prepared again on its second use: the first statement was not kept.
    cache.prepare("select 1").all([]);
    cache.prepare("select 1").all([]);
    expect(prepared.get("select 1")).toBe(2);
    cache.close();
  });

  it("reuses a statement from its second use on", () => {
    const { prepared, connection } = countedConnection();
    const cache = withStatementCache(connection);
    for (let i = 0; i < 10; i++) {
      expect(cache.prepare("select ? as n").all([i])).toEqual([{ n: i }]);
    }
    expect(prepared.get("select ? as n")).toBe(2);
    cache.close();
  });
});
