import { type ScratchServer, startScratchServer } from "@animal-store/openapi-engine/testing";
import { animalStore, type Store } from "@animal-store/server";
import { policy } from "@animal-store/test-support/spec";
import { tightestPlan } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AnimalStoreClientOptions,
  createAnimalStoreClient,
  type PacingWaitEvent,
} from "../src/index.js";

// The plan quickest to exhaust, whatever its numbers in the spec: a minute and a half of its
// quota, so the burst outruns one window and ends within the next.
const FREE = tightestPlan;
const BAN = policy.ban;
const CALLS = Math.min(FREE.perMinute + Math.ceil(FREE.perMinute / 2), FREE.perDay);
const CALLERS = 10;
// Seconds of the server's minute left when the test starts: enough to send a minute's quota.
const SECONDS_LEFT = 8;

const skewMs = serverBehindBy(Date.now());
const serverClock = () => Date.now() - skewMs;
let server: ScratchServer<Store>;

/** How far behind the client the server's clock runs: its minute ends SECONDS_LEFT s from now. */
function serverBehindBy(now: number): number {
  const offset = (((now - (60 - SECONDS_LEFT) * 1000) % 60_000) + 60_000) % 60_000;
  return offset < 20_000 ? offset + 60_000 : offset;
}

/** The real fetch, counting every answer's status and stamping `Date` with the server's clock. */
function serverDatedFetch(statuses: number[]) {
  return async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    statuses.push(response.status);
    const headers = new Headers(response.headers);
    headers.set("Date", new Date(serverClock()).toUTCString());
    return new Response(response.body, { status: response.status, headers });
  };
}

/** Runs `calls` GET /pets from `callers` parallel callers sharing `client`; returns the statuses. */
async function fire(
  client: ReturnType<typeof createAnimalStoreClient>,
  calls: number,
  callers: number,
): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const caller = async () => {
    while (next < calls) {
      next++;
      const { response } = await client.GET("/pets", { params: { query: { limit: 1 } } });
      statuses.push(response.status);
    }
  };
  await Promise.all(Array.from({ length: callers }, caller));
  return statuses;
}

beforeAll(async () => {
  server = await startScratchServer(animalStore, { name: "client-pacing", clock: serverClock });
}, 30_000);

afterAll(async () => {
  await server?.close();
});

describe("pacing on the real server, a key on the tightest plan", () => {
  const clientFor = (apiKey: string, seen: number[], extra: Partial<AnimalStoreClientOptions>) =>
    createAnimalStoreClient({
      baseUrl: server.apiUrl,
      apiKey,
      fetch: serverDatedFetch(seen),
      onDeprecation: () => undefined,
      ...extra,
    } as AnimalStoreClientOptions);

  it("the same burst without pacing draws 429s (the scenario is real)", async () => {
    // Two calls over the quota: 429s, but fewer than the ban threshold.
    expect(2).toBeLessThan(BAN.threshold);
    const key = await server.createKey({ plan: FREE.name, name: "unpaced" });
    const seen: number[] = [];
    const client = clientFor(key, seen, { pacing: false, retry: { maxRetries: 0 } });
    const statuses = await fire(client, FREE.perMinute + 2, CALLERS);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });

  it(`${CALLS} calls from ${CALLERS} parallel callers: zero 429s, no ban`, async () => {
    expect(CALLS).toBeGreaterThan(FREE.perMinute);
    expect(CALLS).toBeLessThanOrEqual(FREE.perDay);
    const key = await server.createKey({ plan: FREE.name, name: "paced" });
    const seen: number[] = [];
    const waits: PacingWaitEvent[] = [];
    const client = clientFor(key, seen, { pacing: { onWait: (event) => waits.push(event) } });

    const statuses = await fire(client, CALLS, CALLERS);

    expect(statuses).toHaveLength(CALLS);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // Every answer the server sent, retried ones included: each a 200, not one 429. (Their count
    // is not pinned: on a loaded machine an attempt the client gave up on as slow is retried,
    // and both answers arrive; CI saw 100 answers for 90 calls, every one a 200.)
    expect(
      seen.filter((s) => s !== 200),
      "answers other than 200",
    ).toEqual([]);
    expect(seen.length).toBeGreaterThanOrEqual(CALLS);
    // The quota really ran out, and the client waited for the window rather than draw a 429.
    expect(waits.some((w) => w.reason === "window" && w.delayMs > 0)).toBe(true);
    // The key is not banned: a further call goes through.
    const after = await client.GET("/pets", { params: { query: { limit: 1 } } });
    expect(after.response.status).toBe(200);
    expect(after.meta.rateLimit?.limit).toBe(FREE.perMinute);
  }, 90_000);
});
