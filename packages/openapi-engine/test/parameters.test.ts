/**
 * Parameters and formats (issue 50), over the parameters fixture (`test/fixtures/parameters.yaml`)
 * served by the echo application: path, query, header and cookie parameters in their styles
 * (form exploded or not, pipeDelimited, deepObject, a path array in style simple), each valid
 * request accepted with its values coerced, each invalid one refused in the Error shape naming
 * the parameter; every format in full mode (`2023-02-30` is no date); an unencoded `:` in a
 * `date-time` query value accepted; integers in decimal digits only. Bounds are read off the
 * fixture.
 */
import { deref, type JsonObject } from "@animal-store/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EchoApp, startEchoApp } from "./support/echo-application.js";
import { loadFixture } from "./support/fixture-contract.js";
import { expectError } from "./support/serve.js";

const { spec } = loadFixture("parameters");
const paths = spec.paths as Record<string, Record<string, { parameters?: JsonObject[] }>>;
/** The schema of parameter `name` of `path`'s GET (path-level parameters included). */
function schemaOf(path: string, name: string): JsonObject {
  const item = paths[path] as unknown as {
    parameters?: JsonObject[];
    get: { parameters: JsonObject[] };
  };
  const parameter = [...(item.parameters ?? []), ...item.get.parameters].find(
    (p) => p.name === name,
  );
  if (parameter === undefined) throw new Error(`no parameter ${name} in ${path}`);
  return deref<JsonObject>(spec, parameter.schema);
}
const EVENTS = "/days/{day}/events";
const SLOTS = "/calendars/{calendarId}/slots/{hours}";
const limit = schemaOf(EVENTS, "limit");
const hourMax = (schemaOf(SLOTS, "hours").items as JsonObject).maximum as number;
const pageMax = schemaOf(SLOTS, "X-Page-Size").maximum as number;
const windowMax = ((schemaOf(EVENTS, "window").properties as JsonObject).from as JsonObject)
  .maximum as number;

let app: EchoApp;
beforeAll(async () => {
  app = await startEchoApp("parameters");
});
afterAll(() => app.close());

async function accepted(response: Response): Promise<{ query: JsonObject; params: JsonObject }> {
  const text = await response.text();
  expect({ status: response.status, text }).toMatchObject({ status: 200 });
  return JSON.parse(text);
}

async function refused(response: Response, message: string) {
  const body = await expectError(response, 400, "validation_failed");
  expect(body.message).toBe(message);
}

const CALENDAR = "3fa85f64-5717-4562-b3fc-2c963f66afa6";
const slotHeaders = { "x-client-address": "10.0.0.1", cookie: "tz=utc; visits=3" };

describe("query parameters in their styles, and formats in full", () => {
  it("accepts every style, coercing values and filling in the default", async () => {
    const { query, params } = await accepted(
      await app.api(
        "/days/2024-02-29/events?since=2023-01-01T10:00:00Z&until=2024-03-01&organizer=ann@example.com" +
          "&tags=work&tags=home&rooms=1,2&floors=0|3&window[from]=8&window[to]=17",
      ),
    );
    expect(params).toEqual({ day: "2024-02-29" });
    expect(query).toEqual({
      since: "2023-01-01T10:00:00Z",
      until: "2024-03-01",
      organizer: "ann@example.com",
      tags: ["work", "home"],
      rooms: [1, 2],
      floors: [0, 3],
      window: { from: 8, to: 17 },
      limit: limit.default,
    });
  });

  it("accepts a date-time with unencoded colons, and with an encoded offset", async () => {
    for (const since of [
      "2023-01-01T10:00:00Z",
      "2023-01-01T10:00:00%2B02:00",
      "2023-01-01T10%3A00%3A00Z",
    ]) {
      const { query } = await accepted(await app.api(`/days/2024-01-01/events?since=${since}`));
      expect(query.since).toBe(decodeURIComponent(since));
    }
  });

  it.each([
    ["/days/2023-02-30/events", 'params/day must match format "date"'],
    ["/days/2024-01-01/events?until=2023-02-30", 'query/until must match format "date"'],
    ["/days/2024-01-01/events?until=2023-13-01", 'query/until must match format "date"'],
    [
      "/days/2024-01-01/events?since=2023-01-01T25:00:00Z",
      'query/since must match format "date-time"',
    ],
    [
      "/days/2024-01-01/events?since=2023-01-01T10:00:00",
      'query/since must match format "date-time"',
    ],
    ["/days/2024-01-01/events?organizer=ann@", 'query/organizer must match format "email"'],
    [
      "/days/2024-01-01/events?tags=play",
      "query/tags/0 must be equal to one of the allowed values: work, home, travel",
    ],
    ["/days/2024-01-01/events?rooms=1,x", "query/rooms/1 must be integer"],
    ["/days/2024-01-01/events?floors=1|-1", "query/floors/1 must be >= 0"],
    [
      `/days/2024-01-01/events?window[from]=${windowMax + 1}`,
      `query/window/from must be <= ${windowMax}`,
    ],
    [
      `/days/2024-01-01/events?limit=${(limit.maximum as number) + 1}`,
      `query/limit must be <= ${limit.maximum}`,
    ],
    [
      "/days/2024-01-01/events?limit=0x10",
      "query/limit must be an integer in decimal digits, without a plus sign, spaces, exponent or leading zero",
    ],
    ["/days/2024-01-01/events?venue=hall", "Unknown query parameter 'venue'"],
  ])("refuses %s naming the parameter", async (path, message) => {
    await refused(await app.api(path), message);
  });
});

describe("path arrays, headers and cookies", () => {
  it("accepts them, coerced", async () => {
    const { params } = await accepted(
      await app.api(`/calendars/${CALENDAR}/slots/8,9`, {
        headers: { ...slotHeaders, "x-page-size": String(pageMax) },
      }),
    );
    expect(params).toEqual({ calendarId: CALENDAR, hours: [8, 9] });
  });

  it.each([
    [`/calendars/nope/slots/8`, {}, 'params/calendarId must match format "uuid"'],
    [`/calendars/${CALENDAR}/slots/8,${hourMax + 1}`, {}, `params/hours/1 must be <= ${hourMax}`],
    [
      `/calendars/${CALENDAR}/slots/8`,
      { "x-client-address": "256.0.0.1" },
      'headers/x-client-address must match format "ipv4"',
    ],
    [
      `/calendars/${CALENDAR}/slots/8`,
      { "x-page-size": String(pageMax + 1) },
      `headers/x-page-size must be <= ${pageMax}`,
    ],
    [
      `/calendars/${CALENDAR}/slots/8`,
      { cookie: "tz=mars" },
      "cookies/tz must be equal to one of the allowed values: utc, local",
    ],
    [
      `/calendars/${CALENDAR}/slots/8`,
      { cookie: "tz=utc; visits=-1" },
      "cookies/visits must be >= 0",
    ],
  ])("refuses %s %j naming the parameter", async (path, headers, message) => {
    await refused(await app.api(path, { headers: { ...slotHeaders, ...headers } }), message);
  });

  it("accepts a header array (style simple) and a cookie array (form, not exploded), checking each item", async () => {
    const path = `/calendars/${CALENDAR}/slots/8`;
    await accepted(
      await app.api(path, {
        headers: { ...slotHeaders, "x-labels": "red,blue", cookie: "tz=utc; days=1,5" },
      }),
    );
    await refused(
      await app.api(path, { headers: { ...slotHeaders, "x-labels": "red,pink" } }),
      "headers/x-labels/1 must be equal to one of the allowed values: red, green, blue",
    );
    await refused(
      await app.api(path, { headers: { ...slotHeaders, cookie: "tz=utc; days=1,9" } }),
      "cookies/days/1 must be <= 7",
    );
  });

  it("refuses a missing required header and a missing required cookie", async () => {
    await refused(
      await app.api(`/calendars/${CALENDAR}/slots/8`, { headers: { cookie: "tz=utc" } }),
      "headers must have required property 'x-client-address'",
    );
    await refused(
      await app.api(`/calendars/${CALENDAR}/slots/8`, {
        headers: { "x-client-address": "10.0.0.1" },
      }),
      "cookies must have required property 'tz'",
    );
  });
});
