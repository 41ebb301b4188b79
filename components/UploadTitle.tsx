// An upload's name (shown as text, without bidi controls) and, under it, its size and date;
// `children` add more facts to that line.
import type { ComponentChildren } from 'preact';
import type { UploadEntry } from '../lib/history';
import { formatBytes, formatDate } from '../lib/i18n';
import { FileName } from './FileName';

export function UploadTitle({ entry, children }: { entry: UploadEntry; children?: ComponentChildren }) {
  return (
    <>
      <strong>
        <FileName name={entry.name} />
      </strong>
      <div class="small muted">
        {formatBytes(entry.size)} · {formatDate(entry.time)}
        {children}
      </div>
    </>
  );
}
