// The built app on `pnpm mock` (Prism, in this process), in Chromium, screen by screen: the key
// screen, the list with its filter and limit, paging by the example's next link, a 400's field error, one pet with getPet's
// deprecation notice, the rate-limit meter, the 429 countdown (forced with Prefer: code=429) and
// the 401 screen. What the page shows is compared with the spec's examples.
import type { ApiErrorBody, Pet } from "@animal-store/client";
import { startPrismMock } from "@animal-store/mock/src/mock-server.mjs";
import { useService } from "@animal-store/test-support";
import { launchChromium } from "@animal-store/test-support/chromium";
import { nextLinkTarget } from "@animal-store/test-support/links";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fieldErrorOf } from "../src/field-errors.js";
import { type AppPage, openApp, unexpectedConsoleErrors } from "./support/app-page.js";
import { type AppServer, serveBuiltApp } from "./support/app-server.js";
import { builtApp } from "./support/built-app.js";
import { firstExample, headerExample, namedExample, petStatuses } from "./support/contract.js";
import { enterKey, expectDeprecationNotice, rowNames } from "./support/screens.js";

const chromium = await useService("chromium", "web app on the mock, in Chromium");

describe.skipIf(!chromium.available)("the built app on pnpm mock", () => {
  let mock: { url: string; close(): Promise<void> };
  let app: AppServer;
  let browser: Browser;
  let web: AppPage;
  const pets = firstExample<Pet[]>("/pets", "get", "200");

  beforeAll(async () => {
    mock = await startPrismMock({ host: "127.0.0.1", port: 0, dynamic: false, logLevel: "silent" });
    app = await serveBuiltApp(await builtApp(), () => mock.url);
    browser = await launchChromium(chromium.available ? chromium.url : "");
    web = await openApp(browser, { appUrl: app.url, apiUrl: mock.url });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await mock?.close();
  });

  it("asks for a key first, and keeps it in this tab's session storage only", async () => {
    await web.page.getByRole("heading", { name: "Enter your API key" }).waitFor();
    expect(web.exchanges).toEqual([]);
    await web.shot("mock-1-key");
    await enterKey(web.page, "any-key-works-on-the-mock");
    await expect.poll(() => rowNames(web.page)).toEqual(pets.map((p) => p.name));
    const storage = await web.page.evaluate(() => ({
      session: Object.entries(sessionStorage),
      local: localStorage.length,
      cookies: document.cookie,
    }));
    expect(storage).toEqual({
      session: [["animal-store.api-key", "any-key-works-on-the-mock"]],
      local: 0,
      cookies: "",
    });
  });

  it("lists animals: the status filter and the limit go into listPets' query", async () => {
    const status = petStatuses[1] ?? "";
    await web.page.getByRole("button", { name: status, exact: true }).click();
    await expect.poll(() => web.exchanges.at(-1)?.url.searchParams.get("status")).toBe(status);
    const max = await web.page.locator("select").first().locator("option").last().textContent();
    await web.page
      .locator("select")
      .first()
      .selectOption(max ?? "");
    await expect.poll(() => web.exchanges.at(-1)?.url.searchParams.get("limit")).toBe(max);
    await web.page.getByRole("button", { name: "all", exact: true }).click();
    await expect.poll(() => web.exchanges.at(-1)?.url.searchParams.has("status")).toBe(false);
    await expect.poll(() => rowNames(web.page)).toEqual(pets.map((p) => p.name));
  });

  it("shows client.rateLimit in the meter", async () => {
    const limit = headerExample("/pets", "get", "200", "X-RateLimit-Limit");
    const remaining = headerExample("/pets", "get", "200", "X-RateLimit-Remaining");
    await expect
      .poll(() => web.page.getByTestId("rate-limit").textContent())
      .toContain(`${remaining} of ${limit} requests left`);
    await web.shot("mock-2-list");
  });

  it("adds an animal: a 400 names its field, a 201 is confirmed", async () => {
    await web.page.getByRole("button", { name: "Add animal" }).click();
    const expected = fieldErrorOf(firstExample<ApiErrorBody>("/pets", "post", "400"));
    expect(expected).not.toBeNull();
    const field = web.page.locator(".field.invalid");
    await expect.poll(() => field.locator(".field-error").textContent()).toBe(expected?.message);
    await web.shot("mock-3-field-error");
    await web.page.getByLabel("Name").fill("Biscuit");
    await web.page.getByRole("button", { name: "Add animal" }).click();
    const created = firstExample<Pet>("/pets", "post", "201");
    await web.page.getByText(`Added ${created.name} as #${created.id}.`).waitFor();
    expect(await web.page.locator(".field.invalid").count()).toBe(0);
  });

  it('{"name":"Bella"}: Prism\'s canned 400 names another field, so none is marked, a general message shows', async () => {
    await web.page.getByLabel("Name").fill("Bella");
    await web.page.getByLabel("Category id").fill("");
    await web.page.getByRole("button", { name: "Add animal" }).click();
    const canned = fieldErrorOf(firstExample<ApiErrorBody>("/pets", "post", "400"));
    // The first example Prism answers with names a field, and not Category id.
    expect(canned?.field).not.toBe("categoryId");
    await web.page.getByText("the answer does not say which field is wrong").waitFor();
    expect(await web.page.locator(".field.invalid").count()).toBe(0);
    await web.shot("mock-3b-unnamed-field");
    await web.page.getByLabel("Category id").fill("1");
    await web.page.getByRole("button", { name: "Add animal" }).click();
    const created = firstExample<Pet>("/pets", "post", "201");
    await web.page.getByText(`Added ${created.name} as #${created.id}.`).waitFor();
  });

  it("opens one pet, with getPet's deprecation notice from onDeprecation", async () => {
    const pet = firstExample<Pet>("/pets/{petId}", "get", "200");
    await web.page.locator(".pet-row").first().click();
    await web.page.locator(".pet-title", { hasText: pet.name }).waitFor();
    await expectDeprecationNotice(web.page);
    await web.shot("mock-4-detail");
    await web.page.getByRole("link", { name: "Close" }).click();
  });

  it("a 429 shows Retry-After counting down, sends nothing until it ends, then recovers", async () => {
    const retryAfter = Number(headerExample("/pets", "get", "429", "Retry-After"));
    await web.prefer("code=429");
    const before = web.exchanges.length;
    await web.page.getByRole("button", { name: "Refresh" }).click();
    const countdown = web.page.getByTestId("retry-countdown");
    const secondsLeft = async () => Number.parseInt((await countdown.textContent()) ?? "", 10);
    // Starts at Retry-After (a loaded machine may show it a second later, one lower).
    await expect.poll(secondsLeft).toBeGreaterThanOrEqual(retryAfter - 1);
    expect(await secondsLeft()).toBeLessThanOrEqual(retryAfter);
    // One request: a Retry-After beyond the client's longest wait comes back at once, unretried.
    expect(web.exchanges.slice(before).map((e) => e.status)).toEqual([429]);
    expect(
      await web.page.getByRole("button", { name: "Waiting for the rate limit" }).isDisabled(),
    ).toBe(true);
    await web.shot("mock-5-rate-limited");
    await web.page.clock.fastForward((retryAfter - 2) * 1000);
    await expect.poll(secondsLeft).toBeLessThanOrEqual(2);
    expect(web.exchanges.length).toBe(before + 1);
    await web.prefer(null);
    await web.page.clock.fastForward(3000);
    await countdown.waitFor({ state: "detached" });
    await expect.poll(() => web.exchanges.slice(before).map((e) => e.status)).toEqual([429, 200]);
    await expect.poll(() => rowNames(web.page)).toEqual(pets.map((p) => p.name));
  });

  it("a 401 brings back the key screen with the API's message", async () => {
    await web.prefer("code=401, example=invalid");
    await web.page.getByRole("button", { name: "Refresh" }).click();
    await web.page.getByRole("heading", { name: "Your API key was refused" }).waitFor();
    const refusal = namedExample<ApiErrorBody>("/pets", "get", "401", "invalid");
    await web.page.getByText(refusal.message).waitFor();
    expect(await web.page.evaluate(() => sessionStorage.length)).toBe(0);
    await web.shot("mock-6-refused");
    await web.prefer(null);
    await enterKey(web.page, "another-key");
    await expect.poll(() => rowNames(web.page)).toEqual(pets.map((p) => p.name));
  });

  it("pages: Load more follows the example's next link, then the mock's repeated link ends the list", async () => {
    const link = headerExample("/pets", "get", "200", "Link");
    // The next link among the example's links (a deprecated list's carries its successor's too).
    const target = new URL(nextLinkTarget(link) ?? "", mock.url);
    expect(nextLinkTarget(link), link).toBeDefined();
    const before = web.exchanges.length;
    await web.page.getByRole("button", { name: "Load more" }).click();
    // The page's request is the link's target, its query as the link wrote it.
    await expect.poll(() => web.exchanges.at(-1)?.url.search).toBe(target.search);
    expect(web.exchanges.slice(before)).toHaveLength(1);
    // The mock answers the same example again, with the same link: nothing more to load.
    await expect.poll(() => rowNames(web.page)).toEqual([...pets, ...pets].map((p) => p.name));
    await web.page.getByText("the end of the list").waitFor();
    expect(await web.page.getByRole("button", { name: "Load more" }).count()).toBe(0);
    await web.shot("mock-2b-paged");
  });

  it("reached nothing but its API, and logged no error of its own", () => {
    expect(web.elsewhere).toEqual([]);
    expect(web.pageErrors).toEqual([]);
    expect(unexpectedConsoleErrors(web, [400, 401, 429])).toEqual([]);
  });
});
