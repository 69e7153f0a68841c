/**
 * Deprecation headers and the sunset's 410 for every deprecated operation of the widgets fixture,
 * and for an operation a scratch copy of the spec deprecates (nothing in the code names one).
 */
import type { AddressInfo } from "node:net";
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import { compileContract, type ServedOperation } from "../contract/contract.js";
import type { EngineError } from "../errors.js";
import { deprecationHeaders, refuseAfterSunset } from "./deprecation.js";

const bundled = loadFixture();
let now = 0;
let operation: ServedOperation | undefined;
let base = "";
const app = express()
  .use((_req, res, next) => {
    res.locals.operation = operation;
    next();
  })
  .use(
    deprecationHeaders as RequestHandler,
    refuseAfterSunset(() => now) as RequestHandler,
    (_req, res) => {
      res.json({ ok: true });
    },
  )
  .use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = err as EngineError;
    res.status(e.status).json({ code: e.code, message: e.message, status: e.status });
  });
const server = app.listen(0, "127.0.0.1");

beforeAll(async () => {
  if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** The headers the spec itself states for a deprecated operation, read off its extensions. */
function expectedHeaders(op: ServedOperation, basePath: string): Record<string, string> {
  const since = Date.parse(`${op.operation["x-deprecated-since"]}T00:00:00Z`) / 1000;
  const [, target] = String(op.operation["x-replacement"]).split(/[ ?]/);
  return {
    deprecation: `@${since}`,
    sunset: new Date(`${op.operation["x-sunset"]}T00:00:00Z`).toUTCString(),
    link: `<${basePath}${target}>; rel="successor-version"`,
  };
}

async function expectAnswers(op: ServedOperation, basePath: string) {
  operation = op;
  const sunsetMs = op.deprecation?.sunsetMs as number;
  const headers = expectedHeaders(op, basePath);
  now = sunsetMs - 1;
  const before = await fetch(base);
  expect(before.status).toBe(200);
  for (const [name, value] of Object.entries(headers)) expect(before.headers.get(name)).toBe(value);
  for (now of [sunsetMs, sunsetMs + 86_400_000]) {
    const after = await fetch(base);
    expect(after.status).toBe(410);
    for (const [name, value] of Object.entries(headers))
      expect(after.headers.get(name)).toBe(value);
    expect(await after.json()).toEqual({
      code: "gone",
      message: `${op.method} ${op.path} was removed on ${op.operation["x-sunset"]}; use ${op.operation["x-replacement"]} instead.`,
      status: 410,
    });
  }
}

describe("deprecated operations of the widgets fixture", () => {
  const contract = compileContract(bundled);
  const deprecated = contract.operations.filter((op) => op.deprecated);

  it("has at least one, and each is compiled with its deprecation", () => {
    expect(deprecated.length).toBeGreaterThan(0);
    for (const op of contract.operations) expect(op.deprecation !== undefined).toBe(op.deprecated);
  });

  it.each(deprecated.map((op) => [op.operationId, op] as const))(
    "%s: headers until the last millisecond before its sunset, then 410 gone with them",
    async (_id, op) => expectAnswers(op, contract.basePath),
  );

  it("the headers agree with the values the spec's own header schemas and examples give", async () => {
    for (const op of deprecated) {
      const ok = op.responses.find((r) => r.status.startsWith("2"));
      const sunset = ok?.headers.find((h) => h.name === "Sunset")?.schema?.const;
      if (sunset !== undefined) expect(sunset).toBe(expectedHeaders(op, contract.basePath).sunset);
    }
  });

  it("operations that are not deprecated carry no such header and never answer 410", async () => {
    for (const op of contract.operations.filter((o) => !o.deprecated)) {
      operation = op;
      now = Date.UTC(2999, 0, 1);
      const answer = await fetch(base);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("deprecation")).toBeNull();
      expect(answer.headers.get("sunset")).toBeNull();
    }
  });
});

describe("an operation deprecated by a spec edit", () => {
  it("gets its headers and its 410 from the edited spec alone", async () => {
    const spec = structuredClone(bundled.spec);
    // Any operation the spec does not deprecate yet, whatever its method (the app above answers
    // every request alike): the spec may deprecate any of them.
    const [path, get] =
      Object.entries(spec.paths)
        .flatMap(([p, item]) =>
          Object.values(item as Record<string, unknown>).map((o) => [p, o] as const),
        )
        .find(
          ([, o]) =>
            typeof o === "object" &&
            o !== null &&
            "operationId" in o &&
            !(o as { deprecated?: boolean }).deprecated,
        ) ?? [];
    if (!get) throw new Error("the spec has no operation that is not deprecated");
    const replacement = Object.entries(spec.paths).find(([p]) => p !== path)?.[0];
    Object.assign(get as Record<string, unknown>, {
      deprecated: true,
      "x-deprecated-since": "2031-01-01",
      "x-sunset": "2031-06-01",
      "x-replacement": `GET ${replacement}`,
    });
    const contract = compileContract({ spec, text: JSON.stringify(spec) });
    const op = contract.operations.find((o) => o.operation === get) as ServedOperation;
    expect(op.deprecation?.sunsetMs).toBe(Date.UTC(2031, 5, 1));
    await expectAnswers(op, contract.basePath);
  });
});
