// The page as the server serves it at /docs: the server's CSP on top of the page's own must still
// let Redoc render, and the page must fetch nothing beyond itself.
import { type ScratchServer, startScratchServer } from "@animal-store/openapi-engine/testing";
import { animalStore, type Store } from "@animal-store/server";
import { useService } from "@animal-store/test-support";
import { launchChromium } from "@animal-store/test-support/chromium";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtPage, operations, PAGE_PATH, spec } from "./page.js";

const browserService = await useService("chromium", "docs served at /docs in Chromium");

describe.skipIf(!browserService.available)(
  "GET /docs on the real server",
  { timeout: 30_000 },
  () => {
    let server: ScratchServer<Store>;
    let browser: Browser;

    beforeAll(async () => {
      builtPage();
      server = await startScratchServer(animalStore, {
        name: "docs",
        env: { DOCS_HTML_PATH: PAGE_PATH },
      });
      browser = await launchChromium(browserService.available ? browserService.url : "");
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it("renders every operation with no request beyond the page and no error", async () => {
      const page = await browser.newPage();
      const docsUrl = `${server.url}/docs`;
      const elsewhere: string[] = [];
      const errors: string[] = [];
      const blocked: string[] = [];
      await page.route("**/*", (route) => {
        const url = route.request().url().split("#")[0];
        if (url === docsUrl) return route.continue();
        elsewhere.push(url ?? "");
        return route.abort();
      });
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("requestfailed", (request) => blocked.push(request.failure()?.errorText ?? ""));
      const response = await page.goto(docsUrl);
      expect(response?.status()).toBe(200);
      await expect(page.title()).resolves.toBe(spec.info.title);
      await page
        .getByText(operations()[0]?.op.tags[0] ?? "", { exact: true })
        .first()
        .click();
      for (const { op } of operations()) {
        await page.getByText(op.summary, { exact: true }).first().waitFor();
      }
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
      // Only Redoc's CDN logo is ever attempted, and CSP refuses it before it leaves the browser.
      for (const reason of blocked) expect(reason).toBe("csp");
    });
  },
);
