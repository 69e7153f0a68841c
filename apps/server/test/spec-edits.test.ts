/**
 * The spec is the only truth, for behaviour too: each test edits a copy of the bundled contract
 * as a person would edit openapi.yaml, builds the app from it, and finds the server doing what
 * the edited spec says, with no change to the server's code.
 */

import { Writable } from "node:stream";
import { type LoadedSpec, loadBundledSpec, rateLimitPolicy } from "@animal-store/openapi";
import {
  deprecate,
  edited,
  findOperation,
  openToAnyone,
  optionalProperty,
  planPerMinute,
  type SpecEdit,
} from "@animal-store/test-support/spec-edits";
import { basePath, dayFromToday } from "@animal-store/test-support/spec-values";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { startTestApp } from "./support/test-app.js";

const bundled = loadBundledSpec();

/** The bundle with `edits` applied, as the server loads a bundle. */
function editedSpec(...edits: SpecEdit[]): LoadedSpec {
  const spec = edited(bundled.spec, ...edits);
  return { spec, text: JSON.stringify(spec, null, 2) };
}

/** A logger whose lines the test reads. */
function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: "info" }, sink), lines };
}

const policy = rateLimitPolicy(bundled.spec);
const plan = policy.anonymousPlan;
const list = findOperation(bundled.spec, "listPets");

describe("a plan's limit edited in x-rate-limit-plans", () => {
  it("is the limit keys of that plan and callers without a key get", async () => {
    const perMinute = Math.max(1, Math.floor((policy.plans[plan]?.perMinute ?? 2) / 2));
    const app = await startTestApp({ spec: editedSpec(planPerMinute(plan, perMinute)) });
    try {
      const key = await app.createKey({ plan });
      const keyed = await app.api(list.path);
      expect(keyed.headers.get("x-ratelimit-limit")).not.toBe(String(perMinute));
      const mine = await app.api(list.path, { headers: { authorization: `Bearer ${key}` } });
      expect(mine.headers.get("x-ratelimit-limit")).toBe(String(perMinute));
      const anonymous = await fetch(`${app.url}${basePath}${list.path}`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("x-ratelimit-limit")).toBe(String(perMinute));
    } finally {
      await app.close();
    }
  });
});

describe("an operation deprecated in the spec", () => {
  const dates = { since: dayFromToday(-30), replacement: "GET /pets/{petId}" };

  it("answers with Deprecation, Sunset and Link before its sunset", async () => {
    const spec = editedSpec(deprecate("listPets", { ...dates, sunset: "2999-06-01" }));
    const app = await startTestApp({ spec });
    try {
      const answer = await app.api(list.path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("deprecation")).toBe(
        `@${Date.parse(`${dates.since}T00:00:00Z`) / 1000}`,
      );
      expect(answer.headers.get("sunset")).toBe(new Date("2999-06-01T00:00:00Z").toUTCString());
      expect(answer.headers.get("link")).toBe(
        `<${basePath}/pets/{petId}>; rel="successor-version"`,
      );
    } finally {
      await app.close();
    }
  });

  it("a page of it with more to come carries both links in one Link field: next and successor-version", async () => {
    const spec = editedSpec(deprecate("listPets", { ...dates, sunset: "2999-06-01" }));
    const app = await startTestApp({ spec });
    try {
      for (let i = 0; i < 2; i++) await app.store.createPet({ name: `p${i}`, categoryId: 1 });
      const first = await app.api(`${list.path}?limit=1`);
      expect(first.status).toBe(200);
      const links = (first.headers.get("link") ?? "").split(/,\s*(?=<)/);
      expect(links).toEqual([
        `<${basePath}/pets/{petId}>; rel="successor-version"`,
        expect.stringMatching(/^<\?limit=1&cursor=[A-Za-z0-9_-]+>; rel="next"$/),
      ]);
      const last = await app.api(`${list.path}?limit=2`);
      expect(last.headers.get("link")).toBe(`<${basePath}/pets/{petId}>; rel="successor-version"`);
    } finally {
      await app.close();
    }
  });

  it("answers 410 gone, with the headers, once its sunset has passed", async () => {
    const spec = editedSpec(deprecate("listPets", { ...dates, sunset: "2020-06-01" }));
    const app = await startTestApp({ spec });
    try {
      const gone = await app.api(list.path);
      expect(gone.status).toBe(410);
      expect(gone.headers.get("sunset")).toBe(new Date("2020-06-01T00:00:00Z").toUTCString());
      expect(await gone.json()).toEqual({
        code: "gone",
        message: `GET ${list.path} was removed on 2020-06-01; use ${dates.replacement} instead.`,
        status: 410,
      });
    } finally {
      await app.close();
    }
  });

  it("is a 500 in tests when a header the spec requires is missing (a Sunset without x-sunset)", async () => {
    // The response still declares its required Sunset, but nothing tells the server the date.
    const spec = editedSpec(deprecate("listPets", { ...dates, sunset: "2999-06-01" }), (s) => {
      delete findOperation(s, "listPets").op["x-sunset"];
    });
    const { logger, lines } = capturedLogger();
    const app = await startTestApp({ spec, logger });
    try {
      const answer = await app.api(list.path);
      expect(answer.status).toBe(500);
      expect(((await answer.json()) as { code: string }).code).toBe("internal_error");
      logger.flush();
      const failure = lines.find((line) => line.msg === "request failed");
      expect(JSON.stringify(failure)).toContain("lacks the required header Sunset");
    } finally {
      await app.close();
    }
  });
});

describe("an operation opened to callers without a key (security: [])", () => {
  it("answers them, counted per address, while the others still ask for a key", async () => {
    const app = await startTestApp({ spec: editedSpec(openToAnyone("listPets")) });
    try {
      const open = await fetch(`${app.url}${basePath}${list.path}`);
      expect(open.status).toBe(200);
      expect(open.headers.get("x-ratelimit-limit")).toBe(String(policy.plans[plan]?.perMinute));
      const withBadKey = await fetch(`${app.url}${basePath}${list.path}`, {
        headers: { authorization: "Bearer ask_not-a-key" },
      });
      expect(withBadKey.status).toBe(200);
      const other = await fetch(`${app.url}${basePath}${list.path}/1`);
      expect(other.status).toBe(401);
    } finally {
      await app.close();
    }
  });
});

describe("an optional response property added to a schema", () => {
  it("keeps every answer valid; the property is simply absent until stored", async () => {
    const spec = editedSpec(optionalProperty("Pet", "specEditNickname", { type: "string" }));
    const app = await startTestApp({ spec });
    try {
      const created = await app.api(list.path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Rex", categoryId: 1 }),
      });
      expect(created.status).toBe(201);
      expect((await app.api(list.path)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe("an operation the spec adds before its handler exists", () => {
  it("is named once at start, and each call answers 500 not_implemented in the Error shape", async () => {
    const spec = editedSpec((s) => {
      s.paths["/pets/{petId}/owner"] = {
        get: {
          ...structuredClone(findOperation(s, "getPet").op),
          operationId: "getPetOwnerWithoutHandler",
          deprecated: undefined,
        },
      };
    });
    const { logger, lines } = capturedLogger();
    const app = await startTestApp({ spec, logger });
    try {
      logger.flush();
      const named = (): unknown[] =>
        lines.filter((line) => String(line.msg).includes("getPetOwnerWithoutHandler"));
      expect(lines.map((line) => line.msg)).toContain(
        "no handler for getPetOwnerWithoutHandler (GET /pets/{petId}/owner): it answers 500 not_implemented until one is added",
      );
      for (let call = 0; call < 2; call++) {
        const answer = await app.api("/pets/1/owner");
        expect(answer.status).toBe(500);
        expect(answer.headers.get("x-request-id")).toBeTruthy();
        expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
        expect(await answer.json()).toEqual({
          code: "not_implemented",
          message: "The operation getPetOwnerWithoutHandler is not implemented yet by this server.",
          status: 500,
        });
      }
      logger.flush();
      expect(named()).toHaveLength(1);
      expect(lines.filter((line) => line.msg === "request failed")).toEqual([]);
      // The other operations are served as ever.
      expect((await app.api("/pets")).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
