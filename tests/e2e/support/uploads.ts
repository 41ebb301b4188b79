// Steps many scenarios take, through a driver: uploading a file on the upload page, and opening a
// link in the viewer as a person pasting it would, and giving the popup a file.
import { until } from '../../../devkit/wait';
import type { Driver, DriverPage, FileSpec, JobView, Target } from '../driver/driver';

/** The name a server stored an upload under: the last part of its link's path. */
export const fileNameOf = (link: string) => new URL(link.split('#')[0]!).pathname.split('/').pop()!;

/** The link field of a finished job on the upload page. */
export const DONE_LINK = '.job[data-state="done"] input[id^="link-"]';

/** The upload page's file input (visually hidden behind its styled label), ready once the page is. */
export const FILE_INPUT = '#file';

/**
 * Chooses files on an open upload page: choosing starts their upload, as it does for a person
 * (one step, no Upload button). A path is a file on disk.
 */
export async function chooseFiles(page: DriverPage, files: FileSpec | FileSpec[] | string): Promise<void> {
  await page.setInputFiles(FILE_INPUT, files);
}

/**
 * Chooses a file on an open upload page, waits for a finished job and returns its link. (Not
 * matched by name: a name is shown without its bidi controls.)
 */
export async function submitFile(page: DriverPage, file: FileSpec, timeout = 30_000): Promise<string> {
  await chooseFiles(page, file);
  try {
    await page.waitFor(DONE_LINK, { timeout });
  } catch (err) {
    throw new Error(`${(err as Error).message} The jobs showed: ${await jobsShown(page)}`);
  }
  return page.inputValue(DONE_LINK);
}

/** What the upload page's jobs say, for a failure message. */
export function jobsShown(page: DriverPage): Promise<string> {
  return page
    .evaluate(() =>
      [...document.querySelectorAll('.job')]
        .map((j) => `[${j.getAttribute('data-state')}] ${(j as HTMLElement).innerText.replace(/\s+/g, ' ')}`)
        .join(' | '),
    )
    .catch((e) => `(unreadable: ${e})`);
}

/** Uploads one file through the upload page and returns its link; `prepare` may choose options first. */
export async function uploadThroughPage(
  d: Pick<Driver, 'open'>,
  file: FileSpec,
  prepare?: (page: DriverPage) => Promise<void>,
): Promise<string> {
  const page = await d.open('upload.html');
  try {
    await page.waitFor(FILE_INPUT);
    await prepare?.(page);
    return await submitFile(page, file);
  } finally {
    await page.close();
  }
}

/** Opens the upload named `name` from the uploads list (its Open button); resolves with the viewer tab. */
export async function openFromList(
  d: Pick<Driver, 'open' | 'waitForNewPage'>,
  name: string,
): Promise<DriverPage> {
  const list = await d.open('uploads.html');
  try {
    await list.waitFor(uploadRow(name));
    return await d.waitForNewPage(() =>
      list.click({ css: 'button', hasText: /^Open$/, within: uploadRow(name) }),
    );
  } finally {
    await list.close();
  }
}

/** Opens the viewer and types a link into it. */
export async function openInViewer(d: Pick<Driver, 'open'>, link: string): Promise<DriverPage> {
  const viewer = await d.open('viewer.html');
  await viewer.fill('#link', link);
  await viewer.click('#open');
  return viewer;
}

/** Waits for the first job `predicate` picks to end (done, failed or cancelled) and returns it. */
export async function endedJob(d: Driver, predicate: (j: JobView) => boolean): Promise<JobView> {
  let jobs: JobView[] = [];
  try {
    return await until(async () => {
      jobs = await d.jobs();
      const job = jobs.find(predicate);
      return job && job.state !== 'running' ? job : undefined;
    }, 'the job to end');
  } catch (err) {
    const seen = jobs.map((j) => `${j.name}: ${j.state}${j.error ? ` (${j.error})` : ''}`);
    throw new Error(`${(err as Error).message} The jobs were: ${seen.join('; ') || 'none'}.`);
  }
}

/** A row of the uploads list, by the file name it shows. */
export const uploadRow = (name: string): Target => ({ css: 'tbody tr', hasText: name });

/** The entries of a row's menu (components/RowMenu.tsx) on the uploads list. */
export type RowAction = 'QR code' | 'Hide QR code' | 'Remove from this list' | 'Delete on the server';

/** Opens the row's menu ("More") and chooses an entry, with the mouse. */
export async function chooseRowAction(page: DriverPage, row: Target, action: RowAction): Promise<void> {
  await page.click({ css: 'button[aria-haspopup="menu"]', within: row });
  await page.click({ css: '[role="menuitem"]', hasText: action, within: row });
}

/** "Delete on the server" from the row's menu, confirmed. */
export async function deleteOnServerFromRow(page: DriverPage, row: Target): Promise<void> {
  await chooseRowAction(page, row, 'Delete on the server');
  await page.click({ css: 'button', hasText: 'Yes, delete it', within: row });
}

/**
 * Gives the popup a file as a person would: pasted where the browser lets a test paste a file,
 * dropped on its drop zone otherwise (see Driver.can.pasteFiles).
 */
export async function giveToPopup(
  d: Driver,
  page: DriverPage,
  file: { name: string; text?: string; size?: number },
) {
  await page.evaluate(
    ({ name, text, size, paste }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text ?? new Uint8Array(size ?? 0)], name, { type: text ? 'text/plain' : '' }));
      if (paste) document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
      else
        document
          .querySelector('.drop')!
          .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { ...file, paste: d.can.pasteFiles },
  );
}
