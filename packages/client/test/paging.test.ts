// client.pages against a scripted HTTP server: it follows `Link: <...>; rel="next"` (a relative
// reference resolved against the request's URL, sent as the link says) until a page has none,
// each page one GET with pacing, deadlines and the caller's signal; a failed page throws its
// ApiError; a link elsewhere or back to a page already read ends the walk without being sent.
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type AnimalStoreClientOptions,
  ApiError,
  createAnimalStoreClient,
  nextPageUrl,
  TimeoutError,
} from "../src/index.js";
import { fakeClock, type ScriptedServer, startScriptedServer } from "./scripted-server.js";

const NOW = Date.UTC(2030, 0, 1, 12, 0, 20);
const pet = (id: number) => ({ id, name: `p${id}`, categoryId: 1 });

/** A 200 with `pets` and, unless `next` is undefined, a Link header of `next`. */
function page(ids: number[], next?: string, headers: Record<string, string> = {}) {
  return {
    status: 200,
    headers: { ...(next === undefined ? {} : { link: next }), ...headers },
    body: ids.map(pet),
  };
}

let server: ScriptedServer;
let elsewhere: ScriptedServer;
beforeAll(async () => {
  [server, elsewhere] = await Promise.all([startScriptedServer(), startScriptedServer()]);
});
afterAll(() => Promise.all([server.close(), elsewhere.close()]));
beforeEach(() => {
  server.reset();
  elsewhere.reset();
});

function clientWith(extra: Pick<AnimalStoreClientOptions, "retry"> = {}) {
  return createAnimalStoreClient({ baseUrl: `${server.url}${basePath}`, apiKey: "k", ...extra });
}

/** Every page's ids, following next from the first. */
async function collect(iterable: AsyncIterable<{ data: { id: number }[] }>): Promise<number[][]> {
  const seen: number[][] = [];
  for await (const { data } of iterable) seen.push(data.map((p) => p.id));
  return seen;
}

describe("client.pages", () => {
  it("follows relative next links to the last page, sending each link's query as it is", async () => {
    server.script(
      page([1, 2], '<?limit=2&status=sold&cursor=c1>; rel="next"'),
      page([3, 4], '<?limit=2&status=sold&cursor=c-2_>; rel="next"'),
      page([5]),
    );
    const client = clientWith();
    const pages = client.pages("/pets", { params: { query: { status: "sold", limit: 2 } } });
    expect(await collect(pages)).toEqual([[1, 2], [3, 4], [5]]);
    expect(server.requests.map((r) => r.path)).toEqual([
      `${basePath}/pets?status=sold&limit=2`,
      `${basePath}/pets?limit=2&status=sold&cursor=c1`,
      `${basePath}/pets?limit=2&status=sold&cursor=c-2_`,
    ]);
    expect(new Set(server.requests.map((r) => r.authorization))).toEqual(new Set(["Bearer k"]));
  });

  it("reads rel=next among other links, unquoted, with other relations, or as an absolute URL", async () => {
    server.script(
      page([1], `<${basePath}/pets?cursor=a>; rel="prev", <${basePath}/pets?cursor=b>; rel=next`),
      page([2], `<${server.url}${basePath}/pets?cursor=c>; title="x, y"; rel="last NEXT"`),
      page([3], `<${basePath}/pets?cursor=z>; rel="prev"`),
    );
    expect(await collect(clientWith().pages("/pets"))).toEqual([[1], [2], [3]]);
    expect(server.requests.map((r) => r.path)).toEqual([
      `${basePath}/pets`,
      `${basePath}/pets?cursor=b`,
      `${basePath}/pets?cursor=c`,
    ]);
  });

  it("a failed page ends the walk with its ApiError, after the pages before it", async () => {
    const error = { code: "invalid_cursor", message: "bad", status: 400 };
    server.script(page([1], '<?cursor=x>; rel="next"'), { status: 400, body: error });
    const seen: number[][] = [];
    const walk = async () => {
      for await (const { data } of clientWith().pages("/pets")) seen.push(data.map((p) => p.id));
    };
    await expect(walk()).rejects.toSatisfy(
      (e) => e instanceof ApiError && e.status === 400 && e.code === "invalid_cursor",
    );
    expect(seen).toEqual([[1]]);
  });

  it("never follows a link to another origin or path: the key stays home", async () => {
    for (const link of [
      `<${elsewhere.url}${basePath}/pets?cursor=x>`,
      `<${basePath}/other?cursor=x>`,
    ]) {
      server.reset();
      server.script(page([1], `${link}; rel="next"`));
      await expect(collect(clientWith().pages("/pets"))).rejects.toThrow(/leaves the list/);
      expect(server.requests).toHaveLength(1);
    }
    expect(elsewhere.requests).toEqual([]);
  });

  it("a link back to a page already read ends the walk instead of looping (as a static mock answers)", async () => {
    const same = '<?cursor=same>; rel="next"';
    server.script(page([1], same), page([2], same));
    await expect(collect(clientWith().pages("/pets"))).rejects.toThrow(/or loops/);
    expect(server.requests.map((r) => r.path)).toEqual([
      `${basePath}/pets`,
      `${basePath}/pets?cursor=same`,
    ]);
  });

  it("is paced: after X-RateLimit-Remaining: 0 the next page waits for the reset", async () => {
    const limited = {
      date: new Date(NOW).toUTCString(),
      "x-ratelimit-limit": "60",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(Math.floor(NOW / 1000) + 30),
    };
    server.script(page([1], '<?cursor=n>; rel="next"', limited), page([2]));
    const clock = fakeClock(NOW);
    const client = clientWith({ retry: { now: clock.now, sleep: clock.sleep } });
    expect(await collect(client.pages("/pets"))).toEqual([[1], [2]]);
    expect(clock.waits).toEqual([30_000]);
  });

  it("each page keeps the call's deadline: a page that hangs ends the walk with a TimeoutError", async () => {
    server.script(page([1], '<?cursor=n>; rel="next"'), { hang: true });
    const walk = collect(clientWith({ retry: false }).pages("/pets", { deadlineMs: 300 }));
    await expect(walk).rejects.toSatisfy((e) => e instanceof TimeoutError && e.kind === "deadline");
    expect(server.requests).toHaveLength(2);
  });

  it("the caller's signal stops the walk between pages", async () => {
    server.script(page([1], '<?cursor=n>; rel="next"'), page([2], '<?cursor=m>; rel="next"'));
    const controller = new AbortController();
    const seen: number[] = [];
    const walk = async () => {
      for await (const { data } of clientWith().pages("/pets", { signal: controller.signal })) {
        seen.push(...data.map((p) => p.id));
        controller.abort(new Error("enough"));
      }
    };
    await expect(walk()).rejects.toThrow("enough");
    expect(seen).toEqual([1]);
    expect(server.requests).toHaveLength(1);
  });
});

describe("nextPageUrl", () => {
  it("resolves the next link against the response's URL; undefined without one", () => {
    const response = (link?: string) => {
      const r = new Response("[]", link ? { headers: { link } } : {});
      Object.defineProperty(r, "url", {
        value: `https://api.example/store${basePath}/pets?limit=2`,
      });
      return r;
    };
    expect(nextPageUrl(response('<?limit=2&cursor=x>; rel="next"'))?.href).toBe(
      `https://api.example/store${basePath}/pets?limit=2&cursor=x`,
    );
    expect(nextPageUrl(response('<?cursor=x>; rel="prev"'))).toBeUndefined();
    expect(nextPageUrl(response())).toBeUndefined();
  });
});
