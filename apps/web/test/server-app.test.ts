// The same build on the real server (`startServer`, a scratch SQLite file, CORS_ORIGINS naming
// the page's origin): only the API address differs. Create → in the filtered list → open →
// deprecation notice; paging through a filtered list with Load more; then a Free key run past
// its per-minute limit (read from the spec) near the end of a window shows the Retry-After
// countdown while the client waits, and recovers.
import type { PetStatus } from "@animal-store/client";
import { useService } from "@animal-store/test-support";
import { launchChromium } from "@animal-store/test-support/chromium";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiProxy, startApiProxy } from "./support/api-proxy.js";
import { type AppPage, openApp, unexpectedConsoleErrors } from "./support/app-page.js";
import { type AppServer, serveBuiltApp } from "./support/app-server.js";
import { builtApp } from "./support/built-app.js";
import { freePerMinute, petStatuses } from "./support/contract.js";
import { plantedFault } from "./support/planted-faults.js";
import { startRealServer, type WebTestServer } from "./support/real-server.js";
import { enterKey, expectDeprecationNotice, rowNames } from "./support/screens.js";

const chromium = await useService("chromium", "web app on the real server, in Chromium");
const fault = plantedFault();
// The rate-limit windows are UTC minutes (the spec's description); the plan's numbers come from it.
const MINUTE = 60_000;

describe.skipIf(!chromium.available)("the built app on the real server", () => {
  let app: AppServer;
  let api: WebTestServer;
  let proxy: ApiProxy;
  let apiUrl = "";
  let browser: Browser;
  const pages: AppPage[] = [];

  beforeAll(async () => {
    app = await serveBuiltApp(await builtApp(), () => apiUrl);
    api = await startRealServer(fault === "cors-origin-missing" ? null : app.origin);
    // The page calls the server through a recording proxy, so the preflights can be checked.
    proxy = await startApiProxy(new URL(api.apiUrl).origin, {
      hideExposedHeaders: fault === "cors-headers-hidden",
    });
    apiUrl = `${proxy.origin}${new URL(api.apiUrl).pathname}`;
    browser = await launchChromium(chromium.available ? chromium.url : "");
  });

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await api?.close();
    await app?.close();
  });

  /** Opens the app with a new Free key entered; the page's clock is the server's. */
  async function openWithFreeKey(name: string): Promise<AppPage> {
    const key = await api.server.createKey({ plan: "free", name });
    const web = await openApp(browser, { appUrl: app.url, apiUrl, clockAt: api.now() });
    pages.push(web);
    await enterKey(web.page, key);
    return web;
  }

  const meter = (web: AppPage) => web.page.getByTestId("rate-limit").textContent();

  it("create → appears in the filtered list → open → deprecation notice", async () => {
    // At the start of a window, so every request of this test is counted in the same one.
    api.jumpTo(Math.ceil(api.now() / MINUTE) * MINUTE + 1_000);
    const web = await openWithFreeKey("web-create");
    await web.page.getByText("No animal yet.").waitFor();
    const [other, status] = [petStatuses[0] ?? "", petStatuses[1] ?? ""];
    // The server's own 400 for an empty name, shown on the field.
    await web.page.getByRole("button", { name: "Add animal" }).click();
    await web.page.locator(".field.invalid #pet-name").waitFor();
    await web.page.getByLabel("Name").fill("Biscuit");
    await web.page.getByLabel("Category id").fill("2");
    await web.page.getByLabel("Status", { exact: true }).selectOption(status);
    await web.page.getByRole("button", { name: "Add animal" }).click();
    await web.page.getByText("Added Biscuit as #1.").waitFor();
    await web.page.getByRole("button", { name: status, exact: true }).click();
    await expect.poll(() => rowNames(web.page)).toEqual(["Biscuit"]);
    await web.page.getByRole("button", { name: other, exact: true }).click();
    await web.page.getByText(`No animal is ${other}.`).waitFor();
    await web.page.getByRole("button", { name: status, exact: true }).click();
    await web.page.getByRole("link", { name: /Biscuit/ }).click();
    await web.page.locator(".pet-title", { hasText: "Biscuit" }).waitFor();
    await expectDeprecationNotice(web.page);
    // Every request so far was counted against the key: the meter shows what is left.
    const counted = web.exchanges.filter((e) => e.status !== undefined).length;
    await expect.poll(() => meter(web)).toContain(`${freePerMinute - counted} of ${freePerMinute}`);
    await web.shot("server-1-detail");
  });

  it("pages through the whole list with Load more: every animal once, in id order, then the end", async () => {
    api.jumpTo(Math.ceil(api.now() / MINUTE) * MINUTE + 1_000);
    const web = await openWithFreeKey("web-paging");
    const perPage = Number(
      await web.page.locator("select").first().locator("option").first().textContent(),
    );
    // More animals than two pages hold, created on the server (not through this key's quota).
    const status = petStatuses[2] as PetStatus;
    for (let i = 0; i < perPage * 2 + 3; i++) {
      await api.server.store.createPet({
        name: `Paged ${i}`,
        categoryId: 1,
        status,
      });
    }
    await web.page.locator("select").first().selectOption(String(perPage));
    await web.page.getByRole("button", { name: status, exact: true }).click();
    const pages = async () => {
      while ((await web.page.getByRole("button", { name: "Load more" }).count()) > 0) {
        await web.page.getByRole("button", { name: "Load more" }).click();
        await web.page.locator(".pet-list[aria-busy='false']").waitFor();
      }
      return rowNames(web.page);
    };
    const all = (await api.server.store.listPets({ limit: 1000, status })).map((pet) => pet.name);
    await expect.poll(pages, { timeout: 15_000 }).toEqual(all);
    await web.page.getByText("the end of the list").waitFor();
    const listed = web.exchanges.filter(
      (e) => e.method === "GET" && e.url.pathname.endsWith("/pets"),
    );
    expect(listed.at(-1)?.url.searchParams.get("status")).toBe(status);
    await web.shot("server-1b-paged");
  });

  it("each call was preflighted and allowed for the page's origin alone", () => {
    const preflights = proxy.exchanges.filter((e) => e.method === "OPTIONS");
    const methods = new Set(
      preflights.map((e) => e.requestHeaders["access-control-request-method"]),
    );
    expect([...methods].sort()).toEqual(["GET", "POST"]);
    for (const { status, requestHeaders, responseHeaders } of preflights) {
      expect(requestHeaders.origin).toBe(app.origin);
      expect(requestHeaders["access-control-request-headers"]).toContain("authorization");
      expect(status).toBe(204);
      expect(responseHeaders["access-control-allow-origin"]).toBe(app.origin);
    }
    const calls = proxy.exchanges.filter((e) => e.method !== "OPTIONS");
    expect(calls.length).toBeGreaterThan(0);
    for (const { responseHeaders } of calls) {
      expect(responseHeaders["access-control-allow-origin"]).toBe(app.origin);
    }
  });

  it("a Free key past its limit shows the Retry-After countdown, waits it out, recovers", async () => {
    // Start early in a window, so the page and the key's spending fit in it.
    api.jumpTo(Math.ceil(api.now() / MINUTE) * MINUTE + 2_000);
    const web = await openWithFreeKey("web-limited");
    await expect.poll(() => meter(web)).toContain(`${freePerMinute - 1} of ${freePerMinute}`);
    const key = await web.page.evaluate(() => sessionStorage.getItem("animal-store.api-key"));
    const headers = { Authorization: `Bearer ${key}` };
    // Spend the rest of the minute's quota outside the page (bounded by the plan's limit).
    for (let i = 0; i < freePerMinute; i++) {
      const res = await fetch(`${api.apiUrl}/pets`, { headers });
      await res.arrayBuffer();
      if (res.headers.get("X-RateLimit-Remaining") === "0") break;
    }
    // Four seconds before the window ends, on the server and on the page.
    const windowEnd = Math.ceil(api.now() / MINUTE) * MINUTE;
    api.jumpTo(windowEnd - 4_000);
    await web.page.clock.setSystemTime(api.now());
    const before = web.exchanges.length;
    await web.page.getByRole("button", { name: "Refresh" }).click();
    const countdown = web.page.getByTestId("retry-countdown");
    await countdown.waitFor();
    await web.shot("server-2-rate-limited");
    await countdown.waitFor({ state: "detached", timeout: 15_000 });
    await expect.poll(() => web.exchanges.slice(before).map((e) => e.status)).toEqual([429, 200]);
    const [limited, retried] = web.exchanges.slice(before);
    const retryAfter = Number(limited?.headers?.["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    // The client sent nothing before Retry-After had passed (event times: a little slack).
    expect((retried?.sentAt ?? 0) - (limited?.answeredAt ?? 0)).toBeGreaterThanOrEqual(
      retryAfter * 1000 - 300,
    );
    await expect.poll(() => meter(web)).toContain(`${freePerMinute - 1} of ${freePerMinute}`);
    await web.shot("server-3-recovered");
  });

  it("reached nothing but its API, and logged no error of its own", () => {
    expect(pages.length).toBe(3);
    for (const web of pages) {
      expect(web.elsewhere).toEqual([]);
      expect(web.pageErrors).toEqual([]);
      expect(unexpectedConsoleErrors(web, [400, 429])).toEqual([]);
    }
  });
});
