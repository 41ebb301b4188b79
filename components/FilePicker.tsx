// The styled way to choose files: a button-like label for a visually hidden file input. The input
// stays the control (Tab reaches it, Enter or Space opens the browser's picker, a screen reader
// names it by the label) and the label shows its focus (assets/ui.css); the bare browser input,
// grey and out of place in dark mode, is never seen.
import { t } from '../lib/i18n';

/** Calls `onFiles` with the files chosen; choosing none (the picker closed) calls nothing. */
export function FilePicker({ id, onFiles }: { id: string; onFiles: (files: File[]) => void }) {
  return (
    <>
      <label class="button picker" for={id}>
        {t('chooseFilesToUpload')}
      </label>
      <input
        id={id}
        class="sr-only"
        type="file"
        multiple
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          // Emptied at once, so the same file chosen again is a change again.
          e.currentTarget.value = '';
          if (files.length) onFiles(files);
        }}
      />
    </>
  );
}
