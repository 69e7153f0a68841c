// The inference rules (resources.mjs) over three contracts: the mock's own fixture and the two
// foreign fixtures of @animal-store/test-support, which carry none of the engine's extensions
// (the engine does not serve those yet; what the mock infers from them does not depend on it).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { compileStaticAnswers, parsePrefer } from "./answers.mjs";
import { inferResources } from "./resources.mjs";

const read = (url: URL) => parse(readFileSync(fileURLToPath(url), "utf8"));
const orchard = read(new URL("../../../test/fixtures/orchard-co-op.yaml", import.meta.url));
const contracts = new URL(
  "../../../../../packages/test-support/fixtures/contracts/",
  import.meta.url,
);
const ferries = read(new URL("harbour-ferries.yaml", contracts));
const library = read(new URL("library-loans.yaml", contracts));

const summary = (spec: Record<string, unknown>) =>
  inferResources(spec as never).map((r) => ({
    name: r.name,
    itemPath: r.itemPath,
    idProperty: r.idProperty,
    scope: r.scopeParameters,
    roles: Object.fromEntries(
      Object.entries(r.operations).map(([role, op]) => [role, op?.operationId]),
    ),
    filters: r.filters,
    paging: [
      r.paging.style,
      r.paging.sizeParameter,
      r.paging.positionParameter,
      r.paging.defaultSize,
    ],
    items: r.list?.itemsProperty,
    meta: r.list?.meta,
    link: r.list?.link,
  }));

describe("resources inferred from the paths", () => {
  it("finds the fixture's three resources, their filters and each one's paging", () => {
    expect(summary(orchard)).toEqual([
      {
        name: "/growers",
        itemPath: "/growers/{growerId}",
        idProperty: "growerId",
        scope: [],
        roles: {
          read: "getGrower",
          replace: "replaceGrower",
          update: "updateGrower",
          remove: "removeGrower",
          create: "createGrower",
          list: "listGrowers",
        },
        filters: ["region", "organic"],
        paging: ["offset", "limit", "offset", 10],
        items: "items",
        meta: { total: "total", offset: "offset", size: "limit" },
        link: false,
      },
      {
        name: "/crates",
        itemPath: "/crates/{crateId}",
        idProperty: "id",
        scope: [],
        roles: { read: "getCrate", remove: "shipCrate", list: "listCrates", create: "packCrate" },
        filters: ["fruit"],
        paging: ["cursor", "pageSize", "cursor", 5],
        items: undefined,
        meta: {},
        link: true,
      },
      {
        name: "/growers/{growerId}/plots",
        itemPath: undefined,
        idProperty: undefined,
        scope: ["growerId"],
        roles: { list: "listPlots", create: "addPlot" },
        filters: ["crop"],
        paging: ["page", "perPage", "page", 25],
        items: "data",
        meta: { hasMore: "hasMore", page: "page" },
        link: false,
      },
    ]);
  });

  it("on Harbour Ferries: stations read-only, bookings with patterned string ids; actions are no resource", () => {
    const found = summary(ferries);
    expect(found.map((r) => [r.name, r.itemPath, r.idProperty, r.roles])).toEqual([
      ["/stations", "/stations/{station-id}", "id", { read: "get-station", list: "get-stations" }],
      [
        "/bookings",
        "/bookings/{booking-id}",
        "id",
        {
          read: "get-booking",
          remove: "delete-booking",
          list: "get-bookings",
          create: "create-booking",
        },
      ],
    ]);
    // `country` names a station property: a filter; `page-size` pages.
    expect(found[0]?.filters).toEqual(["country"]);
    expect(found[0]?.paging).toEqual(["offset", "page-size", undefined, 10]);
  });

  it("on Library Loans: a member's loans (list and create, scoped), the catalogue search no resource", () => {
    expect(summary(library).map((r) => [r.name, r.itemPath, r.scope, r.roles])).toEqual([
      [
        "/members/{member-id}/loans",
        undefined,
        ["member-id"],
        { list: "3-loans-of-member", create: "3-lend" },
      ],
    ]);
  });
});

describe("answers from the contract", () => {
  it("reads Prism's Prefer syntax", () => {
    expect(parsePrefer("code=404, example=notYet")).toEqual({ code: 404, example: "notYet" });
    expect(parsePrefer('example="spring"; dynamic=true')).toEqual({
      example: "spring",
      dynamic: true,
    });
    expect(parsePrefer("respond-async, wait=5")).toEqual({});
    expect(parsePrefer("code=99")).toEqual({});
  });

  it("gives the first success example, or the one named, or a synthesized body", () => {
    const op = (path: string, method: string) => ({
      operationId: orchard.paths[path][method].operationId,
      method: method.toUpperCase(),
      path,
      operation: orchard.paths[path][method],
      parameters: [],
      requestBody: undefined,
      security: [],
      deprecated: false,
      statuses: Object.keys(orchard.paths[path][method].responses),
    });
    const report = compileStaticAnswers(orchard, op("/harvest-report", "get") as never);
    const examples =
      orchard.paths["/harvest-report"].get.responses["200"].content["application/json"].examples;
    expect(report.answer().body).toEqual(examples.autumn.value);
    expect(report.answer({ example: "spring" }).body).toEqual(examples.spring.value);
    expect(report.answer({ code: 404 }).status).toBe(404);
    const synthesized = report.answer({ dynamic: true }).body as Record<string, unknown>;
    expect(Object.keys(synthesized).sort()).toEqual(["growers", "kilograms", "season"]);
    expect(() => report.answer({ code: 418 })).toThrow(/not documented/);
    // A documented header the engine does not write is filled from the contract (Location).
    const create = compileStaticAnswers(orchard, op("/growers", "post") as never).answer();
    expect(create.status).toBe(201);
    expect(Object.keys(create.headers)).toContain("Location");
  });
});
