// The one place that asks which browser this build is for: the build replaces
// import.meta.env.FIREFOX by a constant, so each bundle holds only its own implementation.
import type { BrowserAdapter } from './adapter';
import { chromium } from './chromium';
import { firefox } from './firefox';

export const vapi: BrowserAdapter = import.meta.env.FIREFOX ? firefox : chromium;
