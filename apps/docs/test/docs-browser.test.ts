// Opens the built page in headless Chromium with the network cut off, as a reader offline would,
// and checks what the contract promises is visible. Saves screenshots to screenshots/.
import { mkdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { operationPagination, securitySchemes } from "@animal-store/openapi";
import { useService } from "@animal-store/test-support";
import { launchChromium } from "@animal-store/test-support/chromium";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM plugin without declarations
import { SAMPLE_LABELS } from "../plugins/animal-store-docs.js";
import { builtPage, operations, PAGE_PATH, pageOperation, spec } from "./page.js";

const browserService = await useService("chromium", "docs page in Chromium");
const PAGE_URL = pathToFileURL(PAGE_PATH).href;
const SHOTS = new URL("../screenshots/", import.meta.url);
const deprecated = operations().filter(({ op }) => op.deprecated);
const current = operations().filter(({ op }) => !op.deprecated);
const tag: string = operations()[0]?.op.tags[0] ?? "";

/** The heading Redoc gives an operation (its name also carries an anchor label and badges). */
function operationHeading(page: Page, summary: string) {
  const escaped = summary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return page
    .getByRole("heading")
    .filter({ hasText: new RegExp(`(^|\\s)${escaped}(\\s|$)`) })
    .first();
}

/**
 * Selects `label` in the samples panel that holds `line` (Redoc shows one language at a time,
 * chosen from a menu) and returns the code block showing it.
 */
async function showSample(page: Page, line: string, label: string) {
  const blocks = page.locator('[data-component-name="CodeBlock/CodeBlock"]');
  const languages = new RegExp(
    `^(${Object.values(SAMPLE_LABELS).join("|").replace(/[/@]/g, "\\$&")}|Payload)$`,
  );
  const shown = blocks.filter({ hasText: line });
  if ((await shown.count()) > 0) return shown.first();
  // Another language is selected: open this operation's menu (the one in view) and pick `label`.
  const menus = page.locator('button[aria-haspopup="menu"]').filter({ hasText: languages });
  for (let i = 0; i < (await menus.count()); i++) {
    const menu = menus.nth(i);
    if (!(await menu.isVisible())) continue;
    await menu.click();
    await page.getByRole("menuitem", { name: label, exact: true }).click();
    if ((await shown.count()) > 0) return shown.first();
  }
  return shown.first();
}

/**
 * Redoc renders the page in pieces after a navigation click and keeps scrolling while it grows,
 * so a screenshot taken at once can catch an empty pane. Waits until the scroll position and the
 * page height hold still, brings `subject` into view, checks it is inside the viewport (the
 * screenshot shows what the test claims), then saves the screenshot.
 */
async function screenshot(page: Page, file: string, subject?: Locator) {
  const settle = async () => {
    const read = () =>
      page.evaluate(() => `${window.scrollY}/${document.documentElement.scrollHeight}`);
    let last = await read();
    for (let i = 0; i < 50; i++) {
      await page.waitForTimeout(100);
      const now = await read();
      if (now === last) return;
      last = now;
    }
  };
  await settle();
  if (subject) {
    await subject.scrollIntoViewIfNeeded();
    await settle();
    const box = await subject.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport, file).toBeTruthy();
    if (box && viewport) {
      expect(box.y, `${file}: top in view`).toBeGreaterThanOrEqual(0);
      expect(box.y, `${file}: top in view`).toBeLessThan(viewport.height);
    }
  }
  await page.screenshot({ path: new URL(file, SHOTS).pathname });
}

describe.skipIf(!browserService.available)(
  "docs page in Chromium, offline",
  { timeout: 30_000 },
  () => {
    let browser: Browser;
    let page: Page;
    const leaked: string[] = [];
    const failed: { url: string; reason: string }[] = [];
    const errors: string[] = [];

    beforeAll(async () => {
      builtPage();
      mkdirSync(SHOTS, { recursive: true });
      browser = await launchChromium(browserService.available ? browserService.url : "");
      const context = await browser.newContext({
        offline: true,
        viewport: { width: 1400, height: 1000 },
      });
      page = await context.newPage();
      // Anything but the page itself that reaches the network layer is recorded and refused.
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url === PAGE_URL || url.startsWith(`${PAGE_URL}#`)) return route.continue();
        leaked.push(url);
        return route.abort("internetdisconnected");
      });
      page.on("requestfailed", (request) => {
        failed.push({ url: request.url(), reason: request.failure()?.errorText ?? "" });
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(PAGE_URL);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
    });

    it("renders the API's title and overview", async () => {
      await expect(page.title()).resolves.toBe(spec.info.title);
      await page.getByRole("heading", { name: spec.info.title }).first().waitFor();
      await screenshot(page, "overview.png");
    });

    it("lists every operation in the navigation", async () => {
      await page.getByText(tag, { exact: true }).first().click();
      // Redoc opens the tag's group after the click, in a later frame: wait for each entry to show
      // (a check made at once raced the render and failed on a slow machine), then assert it.
      for (const { op } of operations()) {
        const entry = page.getByText(op.summary, { exact: true }).first();
        await entry.waitFor({ state: "visible", timeout: 10_000 });
        await expect(entry.isVisible(), op.summary).resolves.toBe(true);
      }
    });

    it.each(operations().map(({ op }) => [op.operationId, op] as const))(
      "%s: its page shows the bearer scheme and the X-RateLimit-* headers",
      async (operationId, op) => {
        await page.getByText(op.summary, { exact: true }).first().click();
        const heading = operationHeading(page, op.summary);
        await heading.waitFor();
        expect(page.url()).toMatch(new RegExp(`#/${tag}/${operationId}$`, "i"));
        const schemes = op.security.flatMap((s) => Object.keys(s));
        for (const scheme of schemes) {
          await expect(page.getByText(scheme, { exact: true }).first().isVisible()).resolves.toBe(
            true,
          );
        }
        const success = op.statuses.find((code) => code.startsWith("2"));
        const headers = Object.keys(spec.components?.headers ?? {}).filter((h) =>
          h.startsWith("X-RateLimit-"),
        );
        expect(success && headers.length).toBeTruthy();
        for (const header of headers) {
          await expect(page.getByText(header, { exact: true }).first().isVisible()).resolves.toBe(
            true,
          );
        }
        await screenshot(page, `${operationId}.png`, heading);
      },
    );

    it.each(
      operations().map(({ path, method, op }) => [op.operationId, path, method, op] as const),
    )(
      "%s: its samples panel shows the curl command and the @animal-store/client call",
      async (operationId, path, method, op) => {
        const { samples } = pageOperation(path, method);
        await page.getByText(op.summary, { exact: true }).first().click();
        await operationHeading(page, op.summary).waitFor();
        for (const label of [SAMPLE_LABELS.curl, SAMPLE_LABELS.client]) {
          const source = samples.find((s) => s.label === label)?.source ?? "";
          // The line that names this operation: curl's URL, the client's call or its iterator.
          const line =
            source.split("\n").find((l) => /^curl |client\.([A-Z]+|pages)\(/.test(l)) ?? "";
          expect(line, label).not.toBe("");
          const shown = await showSample(page, line, label);
          await expect(shown.isVisible(), `${operationId} ${label}`).resolves.toBe(true);
          const file = label === SAMPLE_LABELS.curl ? "curl" : "client";
          await screenshot(page, `${operationId}-${file}.png`, shown);
        }
      },
    );

    it("explains paging, and shows the paged operation's Link header and cursor parameter", async () => {
      const paged = operations().find(({ op }) => operationPagination(spec, op));
      const pagination = paged && operationPagination(spec, paged.op);
      if (!paged || !pagination) throw new Error("no operation of the spec pages");
      await page.getByRole("heading", { name: "Paging" }).first().waitFor();
      await page.getByText(paged.op.summary, { exact: true }).first().click();
      await operationHeading(page, paged.op.summary).waitFor();
      const cursor = pagination.cursorParameter;
      await expect(page.getByText(cursor, { exact: true }).first().isVisible()).resolves.toBe(true);
      await expect(page.getByText("Link", { exact: true }).first().isVisible()).resolves.toBe(true);
      await screenshot(page, "paging.png", page.getByText("Link", { exact: true }).first());
    });

    it("explains the bearer scheme in the security details", async () => {
      const [name, scheme] = Object.entries(securitySchemes(spec))[0] ?? ["", {}];
      expect(scheme.scheme).toBe("bearer");
      // The description as rendered: Markdown code spans become plain text.
      const described = String(scheme.description).replace(/`/g, "").replace(/\s+/g, " ").trim();
      expect(described).toMatch(/\bbearer\b/i);
      await page.getByText("View security details").first().click();
      try {
        await expect(page.getByText(name, { exact: true }).last().isVisible()).resolves.toBe(true);
        await page.getByText(described).last().waitFor();
      } finally {
        await page.keyboard.press("Escape");
      }
    });

    it("marks the deprecated operation, and only it, as deprecated", async () => {
      expect(deprecated.length).toBeGreaterThan(0);
      for (const { op } of [...deprecated, ...current]) {
        await page.getByText(op.summary, { exact: true }).first().click();
        const heading = operationHeading(page, op.summary);
        await heading.waitFor();
        const badge = heading.locator("xpath=..").getByText(/^deprecated$/i);
        await expect(badge.count(), op.operationId).resolves.toBe(op.deprecated ? 1 : 0);
        if (op.deprecated) await expect(badge.isVisible()).resolves.toBe(true);
      }
    });

    it("made no network request and threw no error", () => {
      expect(leaked).toEqual([]);
      // Not even Redoc's logo is attempted: the build inlines it (scripts/inline-logo.mjs).
      expect(failed).toEqual([]);
      expect(errors).toEqual([]);
    });
  },
);
