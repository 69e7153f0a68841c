// The built app on a phone, in Chromium at 390×844 (and the narrowest and widest common phone
// widths, 360 and 414): nothing runs past the screen's right edge (the page is no wider than the
// window, and no visible element ends beyond it), and every visible text keeps WCAG AA contrast
// (4.5:1, 3:1 for large text) against the background it is drawn on. On the list, on one animal
// (with its deprecation notice) and on the key screen.
import { useService } from "@animal-store/test-support";
import { launchChromium } from "@animal-store/test-support/chromium";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppPage, openApp } from "./support/app-page.js";
import { type AppServer, serveBuiltApp } from "./support/app-server.js";
import { builtApp } from "./support/built-app.js";
import { enterKey } from "./support/screens.js";
import { startWebTestMock, type WebTestMock } from "./support/stateful-mock.js";

const chromium = await useService("chromium", "web app on a phone, in Chromium");

/** What runs off the screen, and which texts lack contrast, on the page as it is now. */
function layoutFaults(page: Page): Promise<{ overflow: string[]; contrast: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(" ").join(".")}` : ""} "${(el.textContent ?? "").trim().slice(0, 30)}"`;
    const overflow: string[] = [];
    if (document.documentElement.scrollWidth > width) {
      overflow.push(`the page is ${document.documentElement.scrollWidth} px wide in ${width} px`);
    }
    const parse = (color: string) => {
      const m = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/.exec(color);
      return m
        ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])]
        : [0, 0, 0, 0];
    };
    const luminance = ([r, g, b]: number[]) => {
      const c = [r, g, b].map((v) => {
        const s = (v ?? 0) / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * (c[0] ?? 0) + 0.7152 * (c[1] ?? 0) + 0.0722 * (c[2] ?? 0);
    };
    /** The opaque colour behind `el`: its own background or the nearest ancestor's. */
    const backdrop = (el: Element | null): number[] => {
      for (let node = el; node; node = node.parentElement) {
        const bg = parse(getComputedStyle(node).backgroundColor);
        if ((bg[3] ?? 0) > 0.5) return bg;
      }
      return [255, 255, 255, 1];
    };
    const contrast: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      const rect = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (rect.width === 0 || rect.height === 0 || style.visibility === "hidden") continue;
      if (rect.right > width + 0.5 || rect.left < -0.5)
        overflow.push(`${name(el)} spans ${Math.round(rect.left)}..${Math.round(rect.right)} px`);
      const ownText = Array.from(el.childNodes).some(
        (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? "").trim() !== "",
      );
      if (!ownText || Number(style.opacity) < 0.9) continue;
      const fg = luminance(parse(style.color));
      const bg = luminance(backdrop(el));
      const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      const size = Number.parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) contrast.push(`${name(el)}: ${ratio.toFixed(2)}:1`);
    }
    return { overflow, contrast };
  });
}

describe.skipIf(!chromium.available)("the built app on a phone", () => {
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
    for (const web of pages) await web.close();
    await browser?.close();
    await app?.close();
    await mock?.close();
  });

  for (const [width, height] of [
    [390, 844],
    [360, 780],
    [414, 896],
  ] as const) {
    it(`fits ${width}×${height}: nothing overflows, every text keeps its contrast`, async () => {
      const web = await openApp(browser, {
        appUrl: app.url,
        apiUrl: mock.apiUrl,
        viewport: { width, height },
      });
      pages.push(web);
      await web.page.getByLabel("API key", { exact: true }).waitFor();
      expect(await layoutFaults(web.page), "key screen").toEqual({ overflow: [], contrast: [] });
      await enterKey(web.page, `phone-${width}`);
      await web.page.locator(".pet-row").first().waitFor();
      await web.page.getByTestId("rate-limit").waitFor();
      expect(await layoutFaults(web.page), "list").toEqual({ overflow: [], contrast: [] });
      if (width === 390) await web.shot("phone-390-list");
      await web.page.locator(".pet-row").first().click();
      await web.page.locator(".pet-title").waitFor();
      expect(await layoutFaults(web.page), "one animal").toEqual({ overflow: [], contrast: [] });
      if (width === 390) await web.shot("phone-390-detail");
    });
  }
});
