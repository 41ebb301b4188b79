// The keyboard shortcuts the manifest declares (the browser's shortcut settings can change them).
export const UPLOAD_CLIPBOARD = 'upload-clipboard';

/** The manifest's `commands`: open the popup, and upload what is on the clipboard. */
export function manifestCommands(browser: string) {
  return {
    // Firefox's MV2 build names the toolbar button's command after browser_action.
    [browser === 'firefox' ? '_execute_browser_action' : '_execute_action']: {
      suggested_key: { default: 'Alt+Shift+H' },
      description: '__MSG_commandOpen__',
    },
    [UPLOAD_CLIPBOARD]: {
      suggested_key: { default: 'Alt+Shift+U' },
      description: '__MSG_commandUploadClipboard__',
    },
  };
}
