// What the suites read off the app's screens, in one place.
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { headerExample } from "./contract.js";

/** A date as the deprecation notice writes it. */
export function day(date: Date): string {
  return date.toLocaleDateString("en-GB", { dateStyle: "long", timeZone: "UTC" });
}

/** Types a key into the key screen and submits it. */
export async function enterKey(page: Page, key: string): Promise<void> {
  await page.getByLabel("API key", { exact: true }).fill(key);
  await page.getByRole("button", { name: "Use this key" }).click();
  await page.getByRole("heading", { name: "Animals" }).waitFor();
}

/** The names in the list, in order. */
export function rowNames(page: Page): Promise<string[]> {
  return page.locator(".pet-row .pet-name").allTextContents();
}

/** Checks the detail view's notice says what getPet's headers in the spec say. */
export async function expectDeprecationNotice(page: Page): Promise<void> {
  const notice = page.getByRole("note", { name: "Deprecation notice" });
  await notice.waitFor();
  const text = (await notice.textContent()) ?? "";
  const since = headerExample("/pets/{petId}", "get", "200", "Deprecation");
  const sunset = headerExample("/pets/{petId}", "get", "200", "Sunset");
  const link = headerExample("/pets/{petId}", "get", "200", "Link");
  expect(text).toContain("getPet");
  expect(text).toContain(`deprecated since ${day(new Date(Number(since.slice(1)) * 1000))}`);
  expect(text).toContain(`stops working on ${day(new Date(sunset))}`);
  expect(text).toContain(/<([^>]+)>/.exec(link)?.[1]);
}
