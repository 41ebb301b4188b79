import preact from '@preact/preset-vite';
import { defineConfig } from 'wxt';
import { manifestCommands } from './lib/settings/commands';

// Loopback is granted up front so the bundled reference server and servers on this
// machine work without a prompt (over https too: its TLS mode, HTTP/2); every other
// server's origin is asked for when a profile using it is saved (optional_host_permissions).
const LOOPBACK = ['http://127.0.0.1/*', 'http://localhost/*', 'https://127.0.0.1/*', 'https://localhost/*'];
const ANY_SITE = ['http://*/*', 'https://*/*'];

export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({ plugins: [preact()] }),
  // The sources zip AMO asks for: what `npm ci && npm run build:firefox` needs, nothing generated
  // (lib/payments/gen is made again by npm ci) and no test output.
  zip: { excludeSources: ['test-results/**', 'lib/payments/gen/**', 'bench/**'] },
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
    optional_host_permissions: ANY_SITE,
    ...(browser === 'firefox'
      ? {
          // WXT drops optional_host_permissions from an MV2 manifest, and Firefox's
          // permissions.request refuses any origin the manifest does not list: MV2 lists them here.
          optional_permissions: ['clipboardRead', ...ANY_SITE],
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
          },
        }
      : {}),
  }),
});
