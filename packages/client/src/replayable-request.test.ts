import { describe, expect, it } from "vitest";
import { ReplayableRequest, replayerOf } from "./replayable-request.js";

const URL_ = "http://127.0.0.1:9/api/pets";

describe("replayerOf", () => {
  it("re-sends a bodiless request as it is", () => {
    const request = new ReplayableRequest(URL_);
    expect(replayerOf(request)()).toBe(request);
    const plain = new Request(URL_);
    expect(replayerOf(plain)()).toBe(plain);
  });

  it("re-attaches a string body, even after the original body was read", async () => {
    const request = new ReplayableRequest(URL_, {
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
