import preact from '@preact/preset-vite';
import { defineConfig } from 'wxt';
import { manifestCommands } from './lib/settings/commands';

// Loopback is granted up front so the bundled reference server and servers on this
// machine work without a prompt; every other server's origin is asked for when a
// profile using it is saved (optional_host_permissions).
const LOOPBACK = ['http://127.0.0.1/*', 'http://localhost/*'];

export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({ plugins: [preact()] }),
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: [
      'storage',
      'unlimitedStorage',
      'contextMenus',
      'notifications',
      'activeTab',
      'scripting',
      'clipboardWrite',
      // Adds `DNT: 1` to the extension's own requests to servers that have do-not-track on
      // (pages cannot set that header). Acts only where host access is granted: no install warning.
      'declarativeNetRequestWithHostAccess',
      ...(browser === 'firefox' ? [] : ['offscreen']),
    ],
    // Read only when the person presses the "upload the clipboard" shortcut, and asked for the
    // first time it is used (the options page explains why).
    optional_permissions: ['clipboardRead'],
    commands: manifestCommands(browser),
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
