// The options page's server form, filled and tested as a person does it.
import type { ServerAddresses } from '../../testkit/settings';
import { until } from '../../testkit/wait';
import type { Driver, DriverPage } from '../driver/driver';

export async function fillServer(page: DriverPage, server: ServerAddresses, variant: 'legacy' | 'current') {
  await page.fill('#baseUrl', server.baseUrl);
  await page.fill('#apiUrl', server.apiUrl);
  await page.fill('#uploadUrl', server.uploadUrl);
  await page.selectOption('#variant', variant);
}

/**
 * Clicks Test connection on the options page, allows the server's host when the browser asks
 * (see Driver.permissionPrompt), waits for the test to work, then saves.
 */
export async function testAndSave(d: Driver, page: DriverPage, host: string): Promise<void> {
  await page.click('#test');
  await d.permissionPrompt(host, 'allow');
  await until(
    async () => /Connection works/.test(await page.text('#test ~ p')) || undefined,
    'the connection test',
  );
  await page.click('#save');
  await until(async () => (await page.text('#save ~ p')) === 'Saved.' || undefined, '"Saved."');
}
