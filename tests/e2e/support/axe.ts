// Accessibility with axe-core: its serious and critical findings on a page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'vitest';

declare const axe: any;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A driver's page, or a Playwright page (which runs a script's source through evaluate). */
type AnyPage =
  | { addScript(source: string): Promise<void>; evaluate<R>(fn: () => R | Promise<R>): Promise<R> }
  | { evaluate(source: string): Promise<unknown>; evaluate<R>(fn: () => R | Promise<R>): Promise<R> };

/** Saves a screenshot of a driver's page and checks that axe finds nothing serious there. */
export async function screenshotAndAxe(
  page: { screenshot(name: string): Promise<void> } & AnyPage,
  name: string,
): Promise<void> {
  await page.screenshot(name);
  expect(await seriousViolations(page)).toEqual([]);
}

/** axe-core's serious and critical findings on the page, one line each. */
export async function seriousViolations(page: AnyPage): Promise<string[]> {
  if ('addScript' in page) await page.addScript(axeSource);
  else await page.evaluate(axeSource);
  const result = await page.evaluate(() => axe.run(document, { resultTypes: ['violations'] }));
  return (result as any).violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => `${v.id}: ${v.help} (${v.nodes.map((n: any) => n.target.join(' ')).join(', ')})`);
}
