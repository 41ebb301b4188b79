// A payment whose wallet link is too long for any QR code (uqr refuses above about 2,330 bytes):
// the payment page still draws its verdict and the wallet section, says the QR code cannot be
// drawn, and the link can still be copied. Offline text (a bitcoin: URI with a long message), so
// no server is needed.
import { describe, expect, it } from 'vitest';
import { until } from '../../devkit/wait';
import { forEachBrowser } from './driver/each-browser';

const P2WPKH = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
/** Far past what a QR code at any version holds, in plain letters so the URI stays readable. */
const MESSAGE = 'Order '.repeat(500).trim();

forEachBrowser({}, (d) => {
  describe('a wallet link too long for a QR code', () => {
    it('draws Pay with a wallet with a message instead of the code, and the link copies', async () => {
      const uri = `bitcoin:${P2WPKH}?amount=0.0015&message=${encodeURIComponent(MESSAGE)}`;
      const page = await d.open(`payment.html?uri=${encodeURIComponent(uri)}`);
      await page.waitFor('#verdict');
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('unsigned');
      await page.waitFor('#pay-wallet', { visible: true });
      expect(await page.count('#pay-wallet svg.qr')).toBe(0);
      expect(await page.text('#pay-wallet .qr-too-long')).toBe(
        'Too long for a QR code: copy the link instead.',
      );

      const href = await page.attribute('#wallet-link', 'href');
      expect(href?.length).toBeGreaterThan(2400);
      expect(await page.inputValue('#copy-uri')).toBe(href);
      await page.click('button[aria-label="Copy bitcoin: link"]');
      await until(async () => ((await d.clipboardText()) === href ? true : undefined), 'the copied link');
      await page.close();
    });
  });
});
