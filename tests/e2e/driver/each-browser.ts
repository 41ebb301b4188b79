// Runs a block of scenarios once per browser: `forEachBrowser(options, (d) => { it(…) })` makes a
// describe block named after each browser, launches that browser before its scenarios and closes
// it after. E2E_BROWSERS=firefox (or chromium, webkit, or a comma-separated list) runs those only.
// WebKit runs no extension: it joins the blocks of browsers without Hushdrop (`plain: true`) only.
import { afterAll, beforeAll, describe } from 'vitest';
import { ChromiumDriver } from './chromium';
import type { BrowserName, Driver, LaunchOptions } from './driver';
import { FirefoxDriver } from './firefox';
import { WebKitDriver } from './webkit';

const ALL: BrowserName[] = ['chromium', 'firefox', 'webkit'];

/** The browsers this run covers (E2E_BROWSERS, comma-separated; all by default). */
export const BROWSERS: BrowserName[] = process.env.E2E_BROWSERS
  ? ALL.filter((b) => process.env.E2E_BROWSERS!.split(',').includes(b))
  : ALL;

/** The browsers of this run that can run Hushdrop (all but WebKit). */
export const EXTENSION_BROWSERS: BrowserName[] = BROWSERS.filter((b) => b !== 'webkit');

/**
 * The browser a scenario's sender uses, with the extension: the first of this run that runs it,
 * or Chromium when the run covers WebKit only (its recipients still need a sender).
 */
export const SENDER: 'chromium' | 'firefox' = (EXTENSION_BROWSERS[0] as 'chromium' | 'firefox') ?? 'chromium';

const DRIVERS = { chromium: ChromiumDriver, firefox: FirefoxDriver, webkit: WebKitDriver };

export function launchDriver(name: 'chromium', options?: LaunchOptions): Promise<ChromiumDriver>;
export function launchDriver(name: 'firefox', options?: LaunchOptions): Promise<FirefoxDriver>;
export function launchDriver(name: 'webkit', options?: LaunchOptions): Promise<WebKitDriver>;
export function launchDriver(name: BrowserName, options?: LaunchOptions): Promise<Driver>;
export function launchDriver(name: BrowserName, options: LaunchOptions = {}): Promise<Driver> {
  return DRIVERS[name].launch(options);
}

/**
 * `body` gets the driver of the browser its block runs in. It is usable inside hooks and
 * scenarios (it is launched by then); while the scenarios are being collected only `d.name` and
 * `d.can` are known.
 */
export function forEachBrowser(options: LaunchOptions, body: (d: Driver) => void): void {
  for (const name of options.plain ? BROWSERS : EXTENSION_BROWSERS) {
    describe(name, () => {
      let driver: Driver | undefined;
      const known = { name, can: DRIVERS[name].can };
      const d = new Proxy(known as Driver, {
        get(_, key) {
          if (key in known) return known[key as keyof typeof known];
          if (!driver) throw new Error(`The ${name} driver is used before its browser was launched.`);
          const value = (driver as any)[key];
          return typeof value === 'function' ? value.bind(driver) : value;
        },
      });
      beforeAll(async () => {
        driver = await launchDriver(name, options);
      });
      afterAll(async () => {
        await driver?.close();
      });
      body(d);
    });
  }
}
