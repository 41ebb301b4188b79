import preact from '@preact/preset-vite';
import { defineConfig } from 'wxt';

// Loopback is granted up front so the bundled reference server and servers on this
// machine work without a prompt (over https too: its TLS mode, HTTP/2); every other
// server's origin is asked for when a profile using it is saved (optional_host_permissions).
const LOOPBACK = ['http://127.0.0.1/*', 'http://localhost/*', 'https://127.0.0.1/*', 'https://localhost/*'];

export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({ plugins: [preact()] }),
  manifest: ({ browser }) => ({
    name: 'Hushdrop',
    description:
      'Upload files encrypted in your browser, keep the key in the link, and read BIP70 payment requests safely.',
    permissions: [
      'storage',
      'unlimitedStorage',
      'contextMenus',
      'notifications',
      'activeTab',
      'scripting',
      'clipboardWrite',
      ...(browser === 'firefox' ? [] : ['offscreen']),
    ],
    host_permissions: LOOPBACK,
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    ...(browser === 'firefox'
      ? {
          // Firefox lets an extension handle bitcoin: links itself (Chromium has no such key).
          protocol_handlers: [
            { protocol: 'bitcoin', name: 'Hushdrop payment request', uriTemplate: '/payment.html?uri=%s' },
          ],
          browser_specific_settings: {
            gecko: {
              id: 'hushdrop@hushdrop.invalid',
              strict_min_version: '140.0',
              data_collection_permissions: { required: ['none'] },
            },
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : {}),
  }),
});
