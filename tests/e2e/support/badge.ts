// The sign that the content script has read a page: the toolbar badge counting its payment links.
// The page cannot see the badge, so a scenario waits on it where it once waited on marks the
// script wrote into the page (which told pages that Hushdrop is installed).
import { until } from '../../../devkit/wait';
import type { Driver, DriverPage } from '../driver/driver';

/**
 * Waits until the badge of `page`'s tab counts `links` payment links. By then the content script
 * has also set up its click listener (in the same task as its first count), so a person's click
 * on a link is Hushdrop's.
 */
export async function linksCounted(d: Driver, page: DriverPage, links: number): Promise<void> {
  await until(
    async () => ((await d.badgeText(page)) === String(links) ? true : undefined),
    `the badge to count ${links} payment links`,
  );
}
