// The client in a real browser: the published build, bundled for the browser by esbuild (so a
// Node-only import would fail here), loaded into headless Chromium from a local HTTP server and
// pointed at it with a relative baseUrl. Also reports the bundle's minified+gzipped size.
import { useService } from "@animal-store/test-support";
import { launchChromium } from "@animal-store/test-support/chromium";
import { basePath, deprecated as specDeprecated } from "@animal-store/test-support/spec-values";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM script without declarations
import { measureBundle } from "../scripts/size.mjs";
import { type ScriptedServer, startScriptedServer } from "./scripted-server.js";

// The headers a deprecated operation answers with: the spec's first deprecated operation's.
const [shown] = specDeprecated as [(typeof specDeprecated)[number]];

interface Bundle {
  code: Uint8Array;
  minified: number;
  gzipped: number;
  inputs: string[];
}

const chromiumService = await useService("chromium", "client in Chromium");
let bundle: Bundle;
let server: ScriptedServer;
let browser: Browser | undefined;

beforeAll(async () => {
  bundle = await measureBundle();
  server = await startScriptedServer();
  server.files.set("/", { type: "text/html", body: "<!doctype html><title>client</title>" });
  server.files.set("/client.js", { type: "text/javascript", body: bundle.code });
  server.files.set("/favicon.ico", { type: "image/x-icon", body: "" });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the browser bundle", () => {
  it("holds only the client and openapi-fetch, with no Node built-in", () => {
    expect(bundle.inputs.some((input) => input.startsWith("node:"))).toBe(false);
    for (const input of bundle.inputs) {
      expect(input).toMatch(/^(dist\/|.*\/node_modules\/openapi-fetch\/dist\/)/);
    }
    // package.json's `browser` field swaps the plain call path out: browsers get openapi-fetch's.
    expect(bundle.inputs).toContain("dist/plain-call.browser.js");
    expect(bundle.inputs).not.toContain("dist/plain-call.js");
    console.log(`client bundle: ${bundle.minified} B minified, ${bundle.gzipped} B min+gzip`);
    // 9 KiB: 8 KiB held until the IETF rate-limit fields, whose RFC 9651 List parser (rate-limit.ts)
    // takes about half a KiB more.
    expect(bundle.gzipped).toBeLessThan(9 * 1024);
  });
});

describe.skipIf(!chromiumService.available)("the client in Chromium", () => {
  it("calls the API with auth, retries a 429 and reports getPet's deprecation", async () => {
    const executablePath = chromiumService.available ? chromiumService.url : "";
    browser = await launchChromium(executablePath);
    const page = await browser.newPage();
    const warnings: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "warning") warnings.push(message.text());
    });
    await page.goto(`${server.url}/`);
    server.script(
      {
        status: 429,
        headers: { "retry-after": "0" },
        body: { code: "rate_limited", message: "slow down", status: 429 },
      },
      {
        status: 200,
        headers: {
          "x-ratelimit-limit": "60",
          "x-ratelimit-remaining": "58",
          "x-ratelimit-reset": "1767225660",
        },
        body: [{ id: 1, name: "Rex", categoryId: 1, status: "available" }],
      },
      {
        status: 200,
        headers: {
          deprecation: shown.headers.Deprecation as string,
          sunset: shown.headers.Sunset as string,
        },
        body: { id: 1, name: "Rex", categoryId: 1, status: "available" },
      },
    );
    // A string, not a function: the test runner would rewrite a function's dynamic import.
    const result = await page.evaluate(`(async () => {
      const { createAnimalStoreClient, unwrap } = await import("/client.js");
      const client = createAnimalStoreClient({ baseUrl: "${basePath}", apiKey: "browser-key" });
      const pets = unwrap(await client.GET("/pets", { params: { query: { status: "available" } } }));
      const pet = unwrap(await client.GET("/pets/{petId}", { params: { path: { petId: 1 } } }));
      return { pets, pet, remaining: client.rateLimit?.remaining };
    })()`);
    expect(result).toEqual({
      pets: [{ id: 1, name: "Rex", categoryId: 1, status: "available" }],
      pet: { id: 1, name: "Rex", categoryId: 1, status: "available" },
      remaining: 58,
    });
    expect(server.requests.map((r) => [r.path, r.authorization])).toEqual([
      [`${basePath}/pets?status=available`, "Bearer browser-key"],
      [`${basePath}/pets?status=available`, "Bearer browser-key"],
      [`${basePath}/pets/1`, "Bearer browser-key"],
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      `getPet is deprecated; it will be removed on ${shown.deprecation.sunset?.toISOString()}`,
    );
  }, 60_000);
});
