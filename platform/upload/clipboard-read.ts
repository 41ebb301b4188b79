// Reads what is on the clipboard, for the "upload the clipboard" shortcut, in a document that has
// no focus (Chromium's offscreen document, Firefox's background page): navigator.clipboard is
// refused there, but with the clipboardRead permission `execCommand('paste')` hands the clipboard
// to a paste event. Files (a copied image, files copied in a file manager) are staged for the job
// runner; text travels as text.
import { fileStamp } from '../../lib/history/file-names';
import type { UploadSource } from '../../lib/jobs/model';
import { stageFile } from './staging';

export async function readClipboardHere(area: HTMLTextAreaElement): Promise<UploadSource[]> {
  let files: File[] = [];
  let text = '';
  const onPaste = (event: ClipboardEvent) => {
    event.preventDefault();
    files = [...(event.clipboardData?.files ?? [])];
    text = event.clipboardData?.getData('text/plain') ?? '';
  };
  area.addEventListener('paste', onPaste);
  try {
    area.focus();
    if (!document.execCommand('paste')) return [];
  } finally {
    area.removeEventListener('paste', onPaste);
    area.value = '';
  }
  const sources: UploadSource[] = [];
  const stamp = fileStamp();
  for (const [i, file] of files.entries()) {
    const ext = file.type.split('/')[1]?.split(/[+;]/)[0] || 'bin';
    // A copied image comes as "image.png"; name it by time, as screenshots are.
    const name = file.name && file.name !== `image.${ext}` ? file.name : `clipboard-${stamp}-${i + 1}.${ext}`;
    sources.push({ kind: 'staged', id: await stageFile(file), name, type: file.type, size: file.size });
  }
  if (sources.length === 0 && text.trim())
    sources.push({ kind: 'text', text, name: `clipboard-${stamp}.txt` });
  return sources;
}
