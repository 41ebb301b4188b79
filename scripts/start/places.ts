// Where `npm start` keeps what must outlive it: the browsers' profiles (the extension's uploads list,
// with every key and deletion link) and the server's data folder. README, "Set up".
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface Places {
  /** Everything below lives here. */
  home: string;
  /** The server's DATA_DIR. */
  server: string;
  /** Chromium's profile (--user-data-dir). */
  chromium: string;
  /** The copy of the built extension Chromium loads: a fixed path gives the extension a fixed id. */
  chromiumExtension: string;
  /** Firefox's profile. */
  firefox: string;
}

/** `$HUSHDROP_HOME`, else `$XDG_DATA_HOME/hushdrop`, else `~/.local/share/hushdrop`. */
export function places(env: NodeJS.ProcessEnv = process.env): Places {
  const home =
    env.HUSHDROP_HOME ||
    join(env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share'), 'hushdrop');
  return {
    home,
    server: join(home, 'server'),
    chromium: join(home, 'chromium'),
    chromiumExtension: join(home, 'chromium-extension'),
    firefox: join(home, 'firefox'),
  };
}
