// What the WebDriver-based drivers (Firefox over Marionette, WebKit over WebKitWebDriver) share:
// how a Target is found in the page (FIND runs there), WebDriver's key codes, and waiting for the
// tab an action opens.
import { until } from '../../../devkit/wait';
import type { DriverPage, Key, Target } from './driver';

/** The W3C name of an element reference in WebDriver's JSON. */
export const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export type WireTarget = {
  css?: string;
  text?: [string, string];
  label?: [string, string];
  within?: WireTarget;
  nth?: number;
};

/** WebDriver's code points for the keys a scenario presses (the WebDriver spec's key table). */
export const WEBDRIVER_KEYS: Record<Key, string> = {
  Enter: '\uE007',
  ' ': ' ',
  Escape: '\uE00C',
  Tab: '\uE004',
  ArrowDown: '\uE015',
  ArrowUp: '\uE013',
  Home: '\uE011',
  End: '\uE010',
};

export function wire(t: Target): WireTarget {
  if (typeof t === 'string') return { css: t };
  const pattern = (p: string | RegExp): [string, string] =>
    typeof p === 'string' ? [p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), ''] : [p.source, p.flags];
  return {
    css: t.css,
    text: t.hasText === undefined ? undefined : pattern(t.hasText),
    label: t.label === undefined ? undefined : pattern(t.label),
    within: t.within === undefined ? undefined : wire(t.within),
    nth: t.nth,
  };
}

/** Runs in the page: the element a WireTarget names (null when there is none yet). */
export const FIND = `function find(t) {
  const root = t.within ? find(t.within) : document;
  if (!root) return null;
  let els;
  if (t.label) {
    const re = new RegExp(t.label[0], t.label[1]);
    els = [...root.querySelectorAll('label')].filter((l) => re.test(l.textContent)).map((l) => l.control).filter(Boolean);
  } else els = [...root.querySelectorAll(t.css || '*')];
  if (t.css && t.label) els = els.filter((e) => e.matches(t.css));
  if (t.text) { const re = new RegExp(t.text[0], t.text[1]); els = els.filter((e) => re.test(e.textContent)); }
  return els[t.nth || 0] || null;
}`;

/** A Target in words, for an error message. */
export function describe(t: Target): string {
  return typeof t === 'string' ? t : JSON.stringify(t, (_, v) => (v instanceof RegExp ? String(v) : v));
}

/** Runs in the page (arguments: a WireTarget, whether it must be shown): whether it is there. */
export const FOUND = `${FIND}; const e = find(arguments[0]); return !!e && (!arguments[1] || e.getClientRects().length > 0);`;

/** WebDriver's Perform Actions body for one key pressed and released. */
export function keyPress(key: Key) {
  const value = WEBDRIVER_KEYS[key];
  return {
    actions: [
      {
        type: 'key',
        id: 'keyboard',
        actions: [
          { type: 'keyDown', value },
          { type: 'keyUp', value },
        ],
      },
    ],
  };
}

/** Runs `action`, then waits for a window handle that was not there before and for its page to load. */
export async function newPage<P extends DriverPage>(
  handles: () => Promise<string[]>,
  page: (handle: string) => P,
  action: () => Promise<unknown>,
  timeout: number,
): Promise<P> {
  const before = new Set(await handles());
  await action();
  const handle = await until(async () => (await handles()).find((h) => !before.has(h)), 'a new tab', timeout);
  const opened = page(handle);
  await until(
    async () =>
      (await opened.evaluate(() => document.readyState).catch(() => 'loading')) === 'complete'
        ? true
        : undefined,
    'the new tab to load',
    timeout,
  );
  return opened;
}

/**
 * Fills a field with WebDriver's clear and keys (`fill` does both and returns the field's value), again
 * if the field then holds something else, at most three times. WebDriver's clear fires no input event,
 * so a page that keeps its own copy of the value (a Preact state) and draws the field again before the
 * first key may put its old text back in front of the typed one (Firefox under load once sent 121 for
 * "21"). A person deleting the text fires input events, so this is the driver's gap, not the page's.
 */
export async function filled(text: string, fill: () => Promise<unknown>): Promise<void> {
  for (let tries = 1; ; tries++) {
    const value = await fill();
    if (value === text || tries === 3) return;
  }
}
