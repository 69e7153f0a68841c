// The page as the server serves it at /docs: compressed; the server's CSP on top of the page's own
// still lets Redoc render, with no console error and nothing fetched beyond the page (Redoc's
// logo is inlined at build: scripts/inline-logo.mjs); the server list names this server and every
// sample calls it; no sample is cut off or runs under its copy button.
import { type ScratchServer, startScratchServer } from "@animal-store/openapi-engine/testing";
import { animalStore, type Store } from "@animal-store/server";
import { useService } from "@animal-store/test-support";
import { launchChromium } from "@animal-store/test-support/chromium";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtPage, operations, PAGE_PATH, spec } from "./page.js";

const BLOCKS = '[data-component-name="CodeBlock/CodeBlock"]';
const { basePath } = await import("@animal-store/test-support/spec-values");
/** The URL the samples are written with: the contract's first server, variables at defaults. */
const first = (spec.servers ?? [])[0];
const placeholder = (first?.url ?? "").replace(
  /\{(\w+)\}/g,
  (_: string, name: string) => first?.variables?.[name]?.default ?? name,
);

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

    it("renders every operation with no request beyond the page and no console error", async () => {
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
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("requestfailed", (request) => blocked.push(request.failure()?.errorText ?? ""));
      const response = await page.goto(docsUrl);
      expect(response?.status()).toBe(200);
      // Chromium asks for gzip over http (br only over https): the page comes compressed.
      expect(response?.headers()["content-encoding"]).toBe("gzip");
      await expect(page.title()).resolves.toBe(spec.info.title);
      await page
        .getByText(operations()[0]?.op.tags[0] ?? "", { exact: true })
        .first()
        .click();
      for (const { op } of operations()) {
        await page.getByText(op.summary, { exact: true }).first().waitFor();
      }
      await page.waitForTimeout(500);
      expect(elsewhere).toEqual([]);
      expect(blocked).toEqual([]);
      expect(errors).toEqual([]);
    });

    it("lists this server and its samples call it, with a key placeholder", async () => {
      const page = await browser.newPage();
      const serving = `${server.url}${basePath}`;
      await page.goto(`${server.url}/docs`);
      await page.getByText(serving, { exact: true }).first().waitFor();
      await page
        .getByText(operations()[0]?.op.tags[0] ?? "", { exact: true })
        .first()
        .click();
      for (const { op, path } of operations()) {
        await page.getByText(op.summary, { exact: true }).first().click();
        const template = path.replace(/\{[^}]+\}/g, "");
        const curl = page
          .locator(BLOCKS)
          .filter({ hasText: `curl -X ${op.method} '${serving}${template}` });
        await curl.first().waitFor();
        await expect(curl.first().textContent()).resolves.toContain("$API_KEY");
      }
      // No sample calls the contract's placeholder server (the server list still names it).
      const samples = await page.locator(BLOCKS).allTextContents();
      expect(samples.filter((text) => /curl -X|createAnimalStoreClient/.test(text))).not.toEqual(
        [],
      );
      expect(samples.filter((text) => text.includes(placeholder))).toEqual([]);
    });

    it("shows every sample whole: no line cut off, none under the copy button", async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${server.url}/docs`);
      await page
        .getByText(operations()[0]?.op.tags[0] ?? "", { exact: true })
        .first()
        .click();
      for (const { op } of operations()) {
        await page.getByText(op.summary, { exact: true }).first().click();
      }
      await page.locator(BLOCKS).first().waitFor();
      const faults = await page.evaluate((selector) => {
        const found: string[] = [];
        for (const block of Array.from(document.querySelectorAll(selector))) {
          const pre = block.querySelector("pre");
          if (!pre || pre.getClientRects().length === 0) continue;
          const name = (pre.textContent ?? "").slice(0, 40);
          if (pre.scrollWidth > pre.clientWidth + 1) {
            found.push(`${name}: ${pre.scrollWidth} px of text in ${pre.clientWidth} px`);
          }
          const copy = block.querySelector('button[aria-label="Copy"]')?.getBoundingClientRect();
          if (!copy) continue;
          const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const r of Array.from(range.getClientRects())) {
              const hit =
                r.width > 0 &&
                r.left < copy.right &&
                r.right > copy.left &&
                r.top < copy.bottom &&
                r.bottom > copy.top;
              if (hit) found.push(`${name}: "${node.textContent}" under the copy button`);
            }
          }
        }
        return found;
      }, BLOCKS);
      expect(faults).toEqual([]);
    });
  },
);
