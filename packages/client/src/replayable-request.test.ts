import { describe, expect, it } from "vitest";
import { DIRECT, DirectCall, ownRequestOf, replayerOf } from "./replayable-request.js";

const URL_ = "http://127.0.0.1:9/api/pets";
/** A request as openapi-fetch builds it (not light): the constructor returns a real Request. */
const asRequest = (input: string, init: RequestInit = {}) =>
  new DirectCall(input, init) as unknown as Request;

describe("DirectCall", () => {
  it("stays a light object when openapi-fetch builds a direct call, sent with the init it made", () => {
    const headers = new Headers({ authorization: "Bearer k" });
    const init = { method: "POST", body: '{"name":"Rex"}', headers, [DIRECT]: true };
    const call = new DirectCall(URL_, init);
    expect(call).toBeInstanceOf(DirectCall);
    expect(call).not.toBeInstanceOf(Request);
    expect(call.init).toBe(init);
    expect(call.headers).toBe(headers);
    expect([call.url, call.method, call.replayBody]).toEqual([URL_, "POST", '{"name":"Rex"}']);
    expect(ownRequestOf(call)?.replayBody).toBe('{"name":"Rex"}');
  });

  it("is a real Request for a body that can be read only once, even when direct", () => {
    const body = new Blob(["streamed"]).stream();
    const init = { method: "POST", body, duplex: "half", [DIRECT]: true } as RequestInit;
    expect(new DirectCall(URL_, init)).toBeInstanceOf(Request);
  });

  it("is a real Request, carrying the call's fields, when the call is not direct", () => {
    const request = new DirectCall(URL_, { method: "PUT", body: "x", timeoutMs: 5 });
    expect(request).toBeInstanceOf(Request);
    expect(ownRequestOf(request)?.replayBody).toBe("x");
    // A timed call's request carries the client's own signal, not the caller's.
    expect(ownRequestOf(request)?.attempt).toBeInstanceOf(AbortController);
    expect(ownRequestOf(new Request(URL_))).toBeUndefined();
  });

  it("sends a timed attempt with a signal of its own, and a retry with the one it is given", () => {
    const caller = new AbortController();
    const init = { signal: caller.signal, timeoutMs: 100, headers: new Headers() };
    const call = new DirectCall(URL_, init, true);
    expect(call.init.signal).toBe(call.attempt?.signal);
    expect(call.callerSignal).toBe(caller.signal);
    const next = new AbortController();
    const again = replayerOf(call)(next.signal) as DirectCall;
    expect(again).toBeInstanceOf(DirectCall);
    expect(again.init.signal).toBe(next.signal);
    // Every attempt sends the same headers (set once: key, request id).
    expect(again.init.headers).toBe(call.init.headers);
    expect(again.headers).toBe(call.headers);
    expect(replayerOf(call)()).toBe(call);
  });
});

describe("replayerOf", () => {
  it("re-sends a bodiless request as it is", () => {
    const request = asRequest(URL_);
    expect(replayerOf(request)()).toBe(request);
    const plain = new Request(URL_);
    expect(replayerOf(plain)()).toBe(plain);
  });

  it("re-attaches a string body, even after the original body was read", async () => {
    const request = asRequest(URL_, {
      method: "POST",
      body: '{"name":"Rex","categoryId":1}',
      headers: { "content-type": "application/json", authorization: "Bearer k" },
    });
    const replay = replayerOf(request);
    await request.text();
    const again = replay();
    expect(again).not.toBe(request);
    expect(again.method).toBe("POST");
    expect(again.headers.get("authorization")).toBe("Bearer k");
    expect(await again.text()).toBe('{"name":"Rex","categoryId":1}');
    expect(await replay().text()).toBe('{"name":"Rex","categoryId":1}');
  });

  it("clones up front a body that can be read only once", async () => {
    const stream = new Blob(["streamed"]).stream();
    const request = new Request(URL_, {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    const replay = replayerOf(request);
    expect(await request.text()).toBe("streamed");
    expect(await replay().text()).toBe("streamed");
    expect(await replay().text()).toBe("streamed");
  });
});
