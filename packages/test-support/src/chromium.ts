/**
 * Headless Chromium as the machine has it (Debian's package), never a downloaded browser; the path
 * comes from `useService("chromium", ...)` (CHROMIUM_PATH).
 */
import { type Browser, chromium } from "playwright-core";

/** Launches the Chromium at `executablePath` headless, with its own background traffic off. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
    ],
  });
}
