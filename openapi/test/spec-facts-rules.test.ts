// Proves each rule of the spec-facts plugin (src/redocly/) on a planted edit of a copy of the real
// spec: lint fails naming the rule, and the reports name the places of the fact as file:line, both
// of them where a fact is stated twice (each named line holds what the case lists). Edits that
// keep the copies in step pass. The rule requiring the statuses the server can send
// (spec-facts/server-statuses) is shown with the assertion rules, in lint-rules.test.ts.
import { afterAll, describe, expect, it } from "vitest";
import { basePathOf } from "../src/extensions.js";
import { lintScratch, mutated, reportsOf } from "./lint.js";
import { source } from "./source.js";
import type { Json } from "./spec.js";

const scratch = lintScratch();
afterAll(() => scratch.remove());

const listPets = (spec: Json) => spec.paths["/pets"].get;
const getPet = (spec: Json) => spec.paths["/pets/{petId}"].get;

// An operation the spec does not deprecate, with a success response of its own (not a $ref) to
// plant a header on: picked from the spec, since any operation may be the deprecated one.
const undeprecated = Object.entries(source.paths as Record<string, Json>)
  .flatMap(([path, item]) =>
    Object.entries(item as Record<string, Json>).map(([method, op]) => ({ path, method, op })),
  )
  .map(({ path, method, op }) => ({
    path,
    method,
    op,
    status: Object.keys(op?.responses ?? {}).find(
      (s) => /^2/.test(s) && op.responses[s].$ref === undefined && op.responses[s].headers,
    ),
  }))
  .find(({ op, status }) => op?.operationId && !op.deprecated && status !== undefined);
if (!undeprecated) throw new Error("the spec has no operation that is not deprecated");
const plain = (spec: Json) => spec.paths[undeprecated.path][undeprecated.method];

// What today's spec says, read rather than restated: getPet's sunset (as a date and as prose
// writes it) and the base path with the version after it.
const sunset = String(getPet(source)["x-sunset"]);
// That sunset half a year later: computed, so no literal date here can be taken by the
// restated-values scan for one the spec holds (whichever operation the spec deprecates).
const later = new Date(Date.parse(`${sunset}T00:00:00Z`) + 180 * 86_400_000)
  .toISOString()
  .slice(0, 10);
const written = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
const base = basePathOf(source);
const nextBase = base.replace(/\d+$/, (n) => String(Number(n) + 1));
// The anonymous plan's per-minute limit and listPets' largest page, read too, each planted at
// half its value (a value lint must then find quoted nowhere else).
const anonymous = String(source.info["x-rate-limit-anonymous-plan"]);
const perMinute = Number((source as Json).info["x-rate-limit-plans"][anonymous].perMinute);
const halfPerMinute = Math.max(1, Math.floor(perMinute / 2));
const row = (minute: number) =>
  `| ${anonymous[0]?.toUpperCase()}${anonymous.slice(1)} | ${minute.toLocaleString("en-US")} |`;
const pageMax = Number((source as Json).components.parameters.Limit.schema.maximum);
const halfPageMax = Math.max(1, Math.floor(pageMax / 2));
// The body limit and the ban rule, read too, each planted one unit (a KiB, a minute, a request)
// above today's value, so the cases hold whatever values the spec holds; and how the prose writes
// today's value, for the line a report must name.
const en = (n: number) => n.toLocaleString("en-US");
const bodyLimit = Number(source.info["x-request-body-limit-bytes"]);
const biggerBody = bodyLimit + 1024;
const bodyLimitWritten =
  bodyLimit % 1024 === 0 ? `${en(bodyLimit / 1024)} KiB` : `${en(bodyLimit)} bytes`;
const biggerBodyWritten =
  biggerBody % 1024 === 0 ? `${en(biggerBody / 1024)} KiB` : `${en(biggerBody)} bytes`;
const ban = (source.info as Json)["x-rate-limit-ban"];
const banSeconds = Number(ban.banSeconds);
const longerBan = banSeconds + 60;
const refusals = Number(ban.rejectedRequestsBeforeBan);
const moreRefusals = refusals + 1;
const prose = (spec: Json, from: string, to: string) => {
  if (!spec.info.description.includes(from)) throw new Error(`the prose has no "${from}"`);
  spec.info.description = spec.info.description.replace(from, to);
};

/** A planted edit: the rule it breaks, and what the lines a report names must hold. */
type Case = [rule: string, edit: string, change: (spec: Json) => void, lines: string[]];

const cases: Case[] = [
  [
    "spec-facts/deprecation",
    "getPet's x-sunset moved alone",
    (s) => Object.assign(getPet(s), { "x-sunset": later }),
    [written(sunset), `x-sunset: ${later}`],
  ],
  [
    "spec-facts/deprecation",
    "getPet deprecated after its sunset",
    (s) => Object.assign(getPet(s), { "x-deprecated-since": "2031-01-01" }),
    ["x-deprecated-since: 2031-01-01", "x-sunset"],
  ],
  [
    "spec-facts/deprecation",
    "an x-sunset that is not a date",
    (s) => Object.assign(getPet(s), { "x-sunset": "soon" }),
    ["get:"],
  ],
  [
    "spec-facts/deprecation",
    `${undeprecated.op.operationId}, not deprecated, declaring Sunset`,
    (s) => {
      plain(s).responses[undeprecated.status as string].headers.Sunset = {
        $ref: "#/components/headers/Sunset",
      };
    },
    ["Sunset:"],
  ],
  [
    "spec-facts/plan-table",
    `the ${anonymous} plan at ${halfPerMinute} a minute in the extension only`,
    (s) => {
      s.info["x-rate-limit-plans"][anonymous].perMinute = halfPerMinute;
    },
    [row(perMinute), `perMinute: ${halfPerMinute}`],
  ],
  [
    "spec-facts/plan-table",
    "a new plan without its row",
    (s) => {
      s.info["x-rate-limit-plans"].gold = { perMinute: 5000, perDay: 500000 };
    },
    ["gold:", "| Plan |"],
  ],
  [
    "spec-facts/plan-table",
    "a row naming no plan",
    (s) => prose(s, "| Business | 1,000", "| Gold | 1,000"),
    ["| Gold |", "x-rate-limit-plans:"],
  ],
  [
    "spec-facts/plan-table",
    "another anonymous plan, the prose unchanged",
    (s) => Object.assign(s.info, { "x-rate-limit-anonymous-plan": "pro" }),
    ["on the Free plan", "x-rate-limit-anonymous-plan: pro"],
  ],
  [
    "spec-facts/plan-table",
    "Enterprise counted on Pro, the prose unchanged",
    (s) => {
      s.info["x-rate-limit-plans"].enterprise.defaultsTo = "pro";
    },
    ["on the Business limits", "defaultsTo: pro"],
  ],
  [
    "spec-facts/error-codes",
    "an Error code without a row",
    (s) => s.components.schemas.Error.properties.code.enum.push("teapot"),
    ["- teapot", "| Code | Status |"],
  ],
  [
    "spec-facts/error-codes",
    "a row with another status than its examples",
    (s) => prose(s, "| `gone` | 410 |", "| `gone` | 409 |"),
    ["| `gone` | 409 |", "status: 410"],
  ],
  [
    "spec-facts/error-codes",
    "an example with another status than its response",
    (s) => {
      getPet(s).responses["404"].content["application/json"].examples.notFound.value.status = 400;
    },
    ["status: 400", "| `not_found` | 404 |"],
  ],
  [
    "spec-facts/error-codes",
    "a row whose code is in no enum",
    (s) => prose(s, "| `gone` |", "| `removed` |"),
    ["| `removed` |", "enum:"],
  ],
  [
    "spec-facts/error-codes",
    "a connection error row with a status they do not have",
    (s) => prose(s, "| `request_timeout` | 408 |", "| `request_timeout` | 409 |"),
    ["| `request_timeout` | 409 |", "status:"],
  ],
  [
    "spec-facts/quoted-values",
    `limit at most ${halfPageMax}, its description and examples unchanged`,
    (s) => {
      s.components.parameters.Limit.schema.maximum = halfPageMax;
      s.components.parameters.Limit.examples.max.value = halfPageMax;
    },
    [`from 1 to ${pageMax}`, `maximum: ${halfPageMax}`],
  ],
  [
    "spec-facts/quoted-values",
    `a ${biggerBodyWritten} body limit, the prose unchanged`,
    (s) => Object.assign(s.info, { "x-request-body-limit-bytes": biggerBody }),
    [bodyLimitWritten, `x-request-body-limit-bytes: ${biggerBody}`],
  ],
  [
    "spec-facts/quoted-values",
    `a ${longerBan}-second ban, the prose unchanged`,
    (s) => {
      s.info["x-rate-limit-ban"].banSeconds = longerBan;
    },
    [`banned for ${en(banSeconds)} seconds`, `banSeconds: ${longerBan}`],
  ],
  [
    "spec-facts/quoted-values",
    `a ban after ${moreRefusals} more requests, the prose unchanged`,
    (s) => {
      s.info["x-rate-limit-ban"].rejectedRequestsBeforeBan = moreRefusals;
    },
    [`${en(refusals)} more requests`, `rejectedRequestsBeforeBan: ${moreRefusals}`],
  ],
  [
    "spec-facts/quoted-values",
    "the servers under /v2, the prose unchanged",
    (s) => {
      for (const server of s.servers)
        server.url = server.url.replace(new RegExp(`${base}$`), nextBase);
    },
    [`ends with \`${base}\``, `url: https://{host}${nextBase}`],
  ],
  [
    "spec-facts/quoted-values",
    "names of at most 50 characters, the description unchanged",
    (s) => {
      s.components.schemas.PetName.maxLength = 50;
    },
    ["1 to 100 characters", "maxLength: 50"],
  ],
  [
    "spec-facts/quoted-values",
    "a fourth PetStatus, the example message unchanged",
    (s) => s.components.schemas.PetStatus.enum.push("reserved"),
    ["allowed values: available, pending, sold", "enum:"],
  ],
];

/** Each line of `source` a report names (`openapi.yaml:N`). */
const namedLines = (source: string, report: string) =>
  [...report.matchAll(/openapi\.yaml:(\d+)/g)].map(([, n]) => source.split("\n")[Number(n) - 1]);

describe("spec-facts rules", () => {
  it.concurrent.each(cases)(
    "%s fails on %s, naming both places",
    async (rule, _why, change, lines) => {
      const source = mutated(change);
      const result = await scratch.lint(_why, source);
      expect(result.ok).toBe(false);
      const reports = reportsOf(result.output, rule);
      expect(reports.length, result.output).toBeGreaterThan(0);
      const named = reports.flatMap((report) => namedLines(source, report));
      for (const holds of lines)
        expect(
          named.some((line) => line?.includes(holds)),
          `${holds} in ${reports.join("\n")}`,
        ).toBe(true);
    },
  );

  it.concurrent.each([
    [
      "listPets open to anyone, without a 401",
      (s: Json) => {
        listPets(s).security = [];
        delete listPets(s).responses["401"];
      },
    ],
    [
      "getPet's sunset moved with its prose",
      (s: Json) => {
        getPet(s)["x-sunset"] = later;
        for (const [from, to] of [
          [written(sunset), written(later)],
          [sunset, later],
        ] as const) {
          const moved = (text: string) => text.replaceAll(from, to);
          getPet(s).description = moved(getPet(s).description);
          s.info.description = moved(s.info.description);
          const gone = getPet(s).responses["410"].content["application/json"].examples.gone;
          gone.summary = moved(gone.summary);
          gone.value.message = moved(gone.value.message);
        }
      },
    ],
    [
      `the ${anonymous} plan at ${halfPerMinute} a minute with its row`,
      (s: Json) => {
        s.info["x-rate-limit-plans"][anonymous].perMinute = halfPerMinute;
        prose(s, row(perMinute), row(halfPerMinute));
      },
    ],
  ] as const)("passes %s", async (why, change) => {
    const result = await scratch.lint(why, mutated(change));
    expect(result.output).not.toMatch(/\d+:\d+\s+(warning|error)/);
    expect(result.ok).toBe(true);
  });
});
