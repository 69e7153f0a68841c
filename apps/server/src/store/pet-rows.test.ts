import { describe, expect, it } from "vitest";
import {
  arrayMapperFor,
  columnOf,
  compileRowValues,
  propertyOf,
  toPet,
  toPets,
  toRow,
} from "./pet-rows.js";

describe("pet rows", () => {
  it("maps camelCase properties to snake_case columns and back", () => {
    for (const property of ["id", "name", "categoryId", "ownerContactEmail", "level2Code"]) {
      expect(propertyOf(columnOf(property))).toBe(property);
    }
    expect(columnOf("categoryId")).toBe("category_id");
  });

  it("reads a row with a null column as a pet without that property", () => {
    expect(toPet({ id: 1, name: "Rex", category_id: 2, status: null })).toEqual({
      id: 1,
      name: "Rex",
      categoryId: 2,
    });
    expect(toPet({ id: 1, name: "Rex", category_id: 2, status: "sold", nick_name: "R" })).toEqual({
      id: 1,
      name: "Rex",
      categoryId: 2,
      status: "sold",
      nickName: "R",
    });
  });

  it("reads every row of a query, and none of an empty one", () => {
    const rows = [
      { id: 1, name: "a", category_id: 1, status: null },
      { id: 2, name: "b", category_id: 1, status: "pending" },
    ];
    expect(toPets(rows)).toEqual([
      { id: 1, name: "a", categoryId: 1 },
      { id: 2, name: "b", categoryId: 1, status: "pending" },
    ]);
    expect(toPets([])).toEqual([]);
  });

  it("writes only the properties a new pet has, as columns", () => {
    expect(toRow({ name: "Rex", categoryId: 1 })).toEqual({ name: "Rex", category_id: 1 });
    expect(toRow({ name: "Rex", categoryId: 1, status: undefined })).toEqual({
      name: "Rex",
      category_id: 1,
    });
  });

  it("binds every written column, null for a property the pet lacks", () => {
    const valuesOf = compileRowValues(["name", "category_id", "status"]);
    expect(valuesOf({ name: "Rex", categoryId: 2 })).toEqual(["Rex", 2, null]);
    expect(valuesOf({ name: "Rex", categoryId: 2, status: "sold" })).toEqual(["Rex", 2, "sold"]);
  });

  it("never lets a column name escape its string literal", () => {
    expect(toPet({ 'x"];process.exit(1);//': 5 })).toEqual({ 'x"];process.exit(1);//': 5 });
  });

  it("compiles one mapper per column set for the whole process, so every store and page shape calls the same function", () => {
    const columns = ["id", "name", "category_id", "status"];
    const mapper = arrayMapperFor(columns);
    // A second store on the same table (the warm-up's scratch store) gets the very same function.
    expect(arrayMapperFor([...columns])).toBe(mapper);
    expect(arrayMapperFor([...columns, "nick_name"])).not.toBe(mapper);
    expect(mapper([1, "Rex", 2, null])).toEqual({ id: 1, name: "Rex", categoryId: 2 });
    expect(compileRowValues([...columns])).toBe(compileRowValues(columns));
  });
});
