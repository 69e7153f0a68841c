// The built app on `pnpm mock --stateful` (what `pnpm web` starts), in Chromium: each case the
// Prism mock answered wrongly, answered as the server does. The status filter lists only that
// status; an unknown id is the spec's 404; a created animal is listed; `{"name":"Bella"}` marks
// Category id, not Name; Load more pages through every animal; and the 429 banner shows while
// the meter says nothing is left. What the page shows is compared with the spec's examples.
import type { Pet, PetStatus } from "@animal-store/client";
import { storedResources } from "@animal-store/openapi";
import { useService } from "@animal-store/test-support";
import { launchChromium } from "@animal-store/test-support/chromium";
import { spec } from "@animal-store/test-support/spec";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppPage, openApp, unexpectedConsoleErrors } from "./support/app-page.js";
import { type AppServer, serveBuiltApp } from "./support/app-server.js";
import { builtApp } from "./support/built-app.js";
import { freePerMinute, petStatuses } from "./support/contract.js";
import { enterKey, expectDeprecationNotice, rowNames } from "./support/screens.js";
import { startWebTestMock, type WebTestMock } from "./support/stateful-mock.js";

const chromium = await useService("chromium", "web app on the stateful mock, in Chromium");
// The rate-limit windows are UTC minutes (the spec's description); the plan's numbers come from it.
const MINUTE = 60_000;
const seed = [...((storedResources(spec)[0]?.examples ?? []) as Pet[])].sort((a, b) => a.id - b.id);
const highestId = Math.max(...seed.map((pet) => pet.id));
const names = (pets: Pet[]) => pets.map((pet) => pet.name);

describe.skipIf(!chromium.available)("the built app on pnpm mock --stateful", () => {
  let app: AppServer;
  let mock: WebTestMock;
  let browser: Browser;
  const pages: AppPage[] = [];

  beforeAll(async () => {
    mock = await startWebTestMock();
    app = await serveBuiltApp(await builtApp(), () => mock.apiUrl);
    browser = await launchChromium(chromium.available ? chromium.url : "");
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await mock?.close();
  });

  /** Opens the app with a key of its own at the start of a window; the page's clock is the mock's. */
  async function openWithKey(key: string): Promise<AppPage> {
    mock.jumpTo(Math.ceil(mock.now() / MINUTE) * MINUTE + 1_000);
    const web = await openApp(browser, {
      appUrl: app.url,
      apiUrl: mock.apiUrl,
      clockAt: mock.now(),
    });
    pages.push(web);
    await enterKey(web.page, key);
    return web;
  }
  const meter = (web: AppPage) => web.page.getByTestId("rate-limit").textContent();

  it("filters: each status lists only the animals of that status", async () => {
    await mock.reset();
    const web = await openWithKey("web-filter");
    await expect.poll(() => rowNames(web.page)).toEqual(names(seed));
    for (const status of petStatuses) {
      await web.page.getByRole("button", { name: status, exact: true }).click();
      const expected = names(seed.filter((pet) => pet.status === status));
      if (expected.length === 0) await web.page.getByText(`No animal is ${status}.`).waitFor();
      await expect.poll(() => rowNames(web.page)).toEqual(expected);
      await web.shot(`stateful-1-${status}`);
    }
  });

  it("an unknown id gets the spec's 404, not another animal", async () => {
    const web = await openWithKey("web-404");
    const unknown = highestId + 1000;
    await web.page.goto(`${app.url}#/pets/${unknown}`);
    await web.page.getByText(`Pet ${unknown} not found.`).waitFor();
    expect(await web.page.locator(".pet-title").count()).toBe(0);
    await expect.poll(() => web.exchanges.at(-1)?.status).toBe(404);
    await expectDeprecationNotice(web.page);
    await web.shot("stateful-2-not-found");
  });

  it('{"name":"Bella"} marks Category id, the field that was wrong; then the animal is created and listed', async () => {
    await mock.reset();
    const web = await openWithKey("web-create");
    await web.page.getByLabel("Name").fill("Bella");
    await web.page.getByLabel("Category id").fill("");
    await web.page.getByRole("button", { name: "Add animal" }).click();
    await web.page.locator(".field.invalid #pet-category").waitFor();
    expect(await web.page.locator(".field.invalid").count()).toBe(1);
    await web.shot("stateful-3-field-error");
    const status = petStatuses.at(-1) as PetStatus;
    await web.page.getByLabel("Category id").fill("2");
    await web.page.getByLabel("Status", { exact: true }).selectOption(status);
    await web.page.getByRole("button", { name: "Add animal" }).click();
    await web.page.getByText(`Added Bella as #${highestId + 1}.`).waitFor();
    await expect.poll(() => rowNames(web.page)).toEqual([...names(seed), "Bella"]);
    await web.page.getByRole("button", { name: status, exact: true }).click();
    const already = names(seed.filter((pet) => pet.status === status));
    await expect.poll(() => rowNames(web.page)).toEqual([...already, "Bella"]);
    await web.shot("stateful-4-created");
  });

  it("pages through the whole list with Load more: every animal once, in id order, then the end", async () => {
    await mock.reset();
    const web = await openWithKey("web-paging");
    const perPage = Number(
      await web.page.locator("select").first().locator("option").first().textContent(),
    );
    // More animals than two pages hold, created through the API with a key of their own.
    const created: string[] = [];
    for (let i = 0; i < perPage * 2; i++) {
      const res = await fetch(`${mock.apiUrl}/pets`, {
        method: "POST",
        headers: { Authorization: "Bearer web-paging-seed", "Content-Type": "application/json" },
        body: JSON.stringify({ name: `Paged ${i}`, categoryId: 1 }),
      });
      expect(res.status).toBe(201);
      created.push(`Paged ${i}`);
    }
    await web.page.locator("select").first().selectOption(String(perPage));
    const pages = async () => {
      while ((await web.page.getByRole("button", { name: "Load more" }).count()) > 0) {
        await web.page.getByRole("button", { name: "Load more" }).click();
        await web.page.locator(".pet-list[aria-busy='false']").waitFor();
      }
      return rowNames(web.page);
    };
    await expect.poll(pages, { timeout: 15_000 }).toEqual([...names(seed), ...created]);
    await web.page.getByText("the end of the list").waitFor();
    await web.shot("stateful-5-paged");
  });

  it("a key past its limit: the 429 banner shows while the meter says none is left, then recovers", async () => {
    const web = await openWithKey("web-limited");
    await expect.poll(() => meter(web)).toContain(`${freePerMinute - 1} of ${freePerMinute}`);
    // Spend the rest of the minute's quota outside the page (bounded by the plan's limit).
    for (let i = 0; i < freePerMinute; i++) {
      const res = await fetch(`${mock.apiUrl}/pets`, {
        headers: { Authorization: "Bearer web-limited" },
      });
      await res.arrayBuffer();
      if (res.headers.get("X-RateLimit-Remaining") === "0") break;
    }
    // Four seconds before the window ends, on the mock and on the page.
    mock.jumpTo(Math.ceil(mock.now() / MINUTE) * MINUTE - 4_000);
    await web.page.clock.setSystemTime(mock.now());
    const before = web.exchanges.length;
    await web.page.getByRole("button", { name: "Refresh" }).click();
    const countdown = web.page.getByTestId("retry-countdown");
    await countdown.waitFor();
    expect(await meter(web)).toContain(`0 of ${freePerMinute} requests left`);
    await web.shot("stateful-6-rate-limited");
    await countdown.waitFor({ state: "detached", timeout: 15_000 });
    await expect.poll(() => web.exchanges.slice(before).map((e) => e.status)).toEqual([429, 200]);
    await expect.poll(() => meter(web)).toContain(`${freePerMinute - 1} of ${freePerMinute}`);
  });

  it("reached nothing but its API, and logged no error of its own", () => {
    expect(pages.length).toBe(5);
    for (const web of pages) {
      expect(web.elsewhere).toEqual([]);
      expect(web.pageErrors).toEqual([]);
      expect(unexpectedConsoleErrors(web, [400, 404, 429])).toEqual([]);
    }
  });
});
