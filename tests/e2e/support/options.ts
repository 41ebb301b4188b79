// The options page's server form, filled and tested as a person does it.
import type { ServerAddresses } from '../../../devkit/settings';
import { until } from '../../../devkit/wait';
import type { Driver, DriverPage } from '../driver/driver';

/** Opens the page's Advanced disclosure (the API variant lives there), if it is closed. */
export async function showAdvanced(page: DriverPage): Promise<void> {
  await page.waitFor('#advanced');
  if ((await page.attribute('#advanced', 'open')) === null) await page.click('#advanced > summary');
  await page.waitFor('#variant', { visible: true });
}

/** Chooses the variant (under Advanced), then fills the addresses that variant asks for. */
export async function fillServer(page: DriverPage, server: ServerAddresses, variant: 'legacy' | 'current') {
  await showAdvanced(page);
  await page.selectOption('#variant', variant);
  if (variant === 'legacy') await page.fill('#baseUrl', server.baseUrl);
  else {
    await page.fill('#apiUrl', server.apiUrl);
    await page.fill('#uploadUrl', server.uploadUrl);
  }
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
