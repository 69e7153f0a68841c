// The try-it console (dist/try.html: Scalar's API reference over the contract, one self-contained
// page built by scripts/build-try-it.mjs), served at /docs/try by the real server and by the
// stateful mock: it lists the serving origin first, takes the key in its bearer field, sends
// listPets to that origin and shows the answer's status, with no console error and no request
// anywhere else.
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain ESM module without declarations
import { startMock } from "@animal-store/mock/src/start.mjs";
import { type ScratchServer, startScratchServer } from "@animal-store/openapi-engine/testing";
import { animalStore, type Store } from "@animal-store/server";
import { useService } from "@animal-store/test-support";
import { launchChromium } from "@animal-store/test-support/chromium";
import { basePath } from "@animal-store/test-support/spec-values";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, PAGE_PATH } from "./page.js";

const browserService = await useService("chromium", "the try-it console in Chromium");
const TRY_PATH = fileURLToPath(new URL("../dist/try.html", import.meta.url));
const list = operations().find(
  ({ op }) => op.method === "GET" && !op.deprecated && !op.path.includes("{"),
);

describe.skipIf(!browserService.available)(
  "the try-it console at /docs/try",
  { timeout: 60_000 },
  () => {
    let server: ScratchServer<Store>;
    let mock: { origin: string; close(): Promise<void> };
    let browser: Browser;

    beforeAll(async () => {
      server = await startScratchServer(animalStore, {
        name: "try-it",
        env: { DOCS_HTML_PATH: PAGE_PATH },
        key: { plan: "pro" },
      });
      // The stateful mock serves the docs built in this package (the application's default path).
      mock = await startMock({
        host: "127.0.0.1",
        port: 0,
        stateful: true,
        dynamic: false,
        logLevel: "error",
      });
      browser = await launchChromium(browserService.available ? browserService.url : "");
    }, 90_000);

    afterAll(async () => {
      await browser?.close();
      await mock?.close();
      await server?.close();
    });

    it("is built next to the reference page", () => {
      expect(TRY_PATH.endsWith("dist/try.html")).toBe(true);
      expect(list, "a GET list operation without path parameters").toBeDefined();
    });

    for (const target of ["the real server", "the stateful mock"] as const) {
      it(`sends ${list?.op.operationId} to ${target} and shows its answer`, async () => {
        const origin = target === "the real server" ? server.url : mock.origin;
        const key = target === "the real server" ? server.key : "try-it-key";
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const errors: string[] = [];
        const elsewhere: string[] = [];
        const answers: number[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        page.on("console", (message) => {
          if (message.type() === "error") errors.push(message.text());
        });
        page.on("request", (request) => {
          if (new URL(request.url()).origin !== origin) elsewhere.push(request.url());
        });
        page.on("response", (response) => {
          if (new URL(response.url()).pathname === `${basePath}${list?.path}`) {
            answers.push(response.status());
          }
        });
        const response = await page.goto(`${origin}/docs/try`);
        expect(response?.status()).toBe(200);
        expect(response?.headers()["content-security-policy"]).toContain("connect-src 'self'");
        // The serving origin is the first server, so it is the one selected.
        await page.getByText(`${origin}${basePath}`, { exact: true }).first().waitFor();
        await page.getByPlaceholder("Token").first().fill(key);
        await page
          .getByText(list?.op.summary ?? "", { exact: true })
          .first()
          .click();
        await page
          .getByRole("button", { name: /Test Request/ })
          .first()
          .click();
        await page.getByRole("button", { name: /^Send/ }).first().click();
        await expect.poll(() => answers).toEqual([200]);
        await page.getByText("200 OK").first().waitFor();
        expect(errors).toEqual([]);
        expect(elsewhere).toEqual([]);
        await page.close();
      });
    }
  },
);
