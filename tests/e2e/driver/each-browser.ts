// Runs a block of scenarios once per browser: `forEachBrowser(options, (d) => { it(…) })` makes a
// describe block named after each browser, launches that browser before its scenarios and closes
// it after. E2E_BROWSERS=firefox (or chromium) runs one of them.
import { afterAll, beforeAll, describe } from 'vitest';
import { ChromiumDriver } from './chromium';
import type { BrowserName, Driver, LaunchOptions } from './driver';
import { FirefoxDriver } from './firefox';

const ALL: BrowserName[] = ['chromium', 'firefox'];

/** The browsers this run covers (E2E_BROWSERS, comma-separated; both by default). */
export const BROWSERS: BrowserName[] = process.env.E2E_BROWSERS
  ? ALL.filter((b) => process.env.E2E_BROWSERS!.split(',').includes(b))
  : ALL;

export function launchDriver(name: 'chromium', options?: LaunchOptions): Promise<ChromiumDriver>;
export function launchDriver(name: 'firefox', options?: LaunchOptions): Promise<FirefoxDriver>;
export function launchDriver(name: BrowserName, options?: LaunchOptions): Promise<Driver>;
export function launchDriver(name: BrowserName, options: LaunchOptions = {}): Promise<Driver> {
  return name === 'chromium' ? ChromiumDriver.launch(options) : FirefoxDriver.launch(options);
}

/**
 * `body` gets the driver of the browser its block runs in. It is usable inside hooks and
 * scenarios (it is launched by then); while the scenarios are being collected only `d.name` and
 * `d.can` are known.
 */
export function forEachBrowser(options: LaunchOptions, body: (d: Driver) => void): void {
  for (const name of BROWSERS) {
    describe(name, () => {
      let driver: Driver | undefined;
      const known = { name, can: name === 'chromium' ? ChromiumDriver.can : FirefoxDriver.can };
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
