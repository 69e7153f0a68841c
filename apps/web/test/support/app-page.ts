/**
 * The built app open in Chromium, watched: every request the page sends to its API (and the
 * answers), any request to another origin, console errors and uncaught exceptions. No request is
 * intercepted: with a route set, Playwright answers CORS preflights itself, and the real server's
 * must be what the browser sees. Anything elsewhere is refused by the page's CSP (a console error)
 * before it leaves. A test may add a `Prefer` header to every request (the mock's way to force a
 * status) without the app knowing.
 */
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";

const SHOTS = new URL("../../screenshots/", import.meta.url);

/** One request the page sent to the API, and its answer once it came. */
export interface ApiExchange {
  method: string;
  url: URL;
  sentAt: number;
  status?: number;
  answeredAt?: number;
  headers?: Record<string, string>;
}

/** A page of the app with what it did recorded. */
export interface AppPage {
  page: Page;
  context: BrowserContext;
  exchanges: ApiExchange[];
  /** URLs the page requested outside its own origin and the API's. */
  elsewhere: string[];
  consoleErrors: string[];
  pageErrors: string[];
  /** Adds `Prefer: <value>` to every request from now on (null: stop). */
  prefer(value: string | null): Promise<void>;
  /** Saves a screenshot to apps/web/screenshots/<name>.png. */
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens `appUrl` in a new context whose API is `apiUrl`; `clockAt` sets the page's clock. */
export async function openApp(
  browser: Browser,
  options: {
    appUrl: string;
    apiUrl: string;
    clockAt?: number;
    /** The window's size (a desktop's by default; a phone's for the layout test). */
    viewport?: { width: number; height: number };
  },
): Promise<AppPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 760 },
  });
  // Date and timers are Playwright's: time flows, and a test may jump it (fastForward).
  await context.clock.install({ time: options.clockAt ?? Date.now() });
  const appOrigin = new URL(options.appUrl).origin;
  const apiOrigin = new URL(options.apiUrl).origin;
  const exchanges: ApiExchange[] = [];
  const elsewhere: string[] = [];
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];

  const page = await context.newPage();
  // Long enough for a loaded CI machine, short enough that a planted fault fails quickly.
  page.setDefaultTimeout(10_000);
  const byRequest = new Map<object, ApiExchange>();
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin !== apiOrigin) {
      if (url.origin !== appOrigin && url.protocol !== "data:") elsewhere.push(request.url());
      return;
    }
    const exchange: ApiExchange = { method: request.method(), url, sentAt: Date.now() };
    exchanges.push(exchange);
    byRequest.set(request, exchange);
  });
  page.on("response", async (response) => {
    const exchange = byRequest.get(response.request());
    if (!exchange) return;
    exchange.status = response.status();
    exchange.answeredAt = Date.now();
    exchange.headers = await response.allHeaders().catch(() => ({}));
  });
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(options.appUrl);
  mkdirSync(SHOTS, { recursive: true });
  return {
    page,
    context,
    exchanges,
    elsewhere,
    consoleErrors,
    pageErrors,
    prefer: (value) => context.setExtraHTTPHeaders(value ? { Prefer: value } : {}),
    shot: async (name) => {
      await page.screenshot({
        path: new URL(`${name}.png`, SHOTS).pathname,
        fullPage: true,
        animations: "disabled",
      });
    },
    close: () => context.close(),
  };
}

/**
 * Console errors that are not the browser's own line for an answered API error of an expected
 * status ("Failed to load resource: the server responded with a status of 429 ..."): a CORS
 * refusal, a failed fetch or an app error stays in the list.
 */
export function unexpectedConsoleErrors(app: AppPage, expectedStatuses: number[]): string[] {
  return app.consoleErrors.filter((text) => {
    const status = /^Failed to load resource: the server responded with a status of (\d{3})/.exec(
      text,
    )?.[1];
    return !(status && expectedStatuses.includes(Number(status)));
  });
}
