// Files arriving by drag-and-drop or by paste, for the upload page and the popup.
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * Calls `onFiles` with the files pasted anywhere in the document. Listens from the first render
 * on (a layout effect runs before the page is painted), so a paste right after the popup opens counts.
 */
export function usePastedFiles(onFiles: (files: File[]) => void): void {
  const latest = useRef(onFiles);
  latest.current = onFiles;
  useLayoutEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      const files = [...(e.clipboardData?.files ?? [])];
      if (files.length) {
        e.preventDefault();
        latest.current(files);
      }
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, []);
}

/** A drop target; keyboard users reach the controls inside it (a file input or a button). */
export function DropZone({
  onFiles,
  label,
  children,
}: {
  onFiles: (files: File[]) => void;
  label: string;
  children: ComponentChildren;
}) {
  const [over, setOver] = useState(false);
  return (
    <section
      class={`drop${over ? ' over' : ''}`}
      aria-label={label}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        onFiles([...(e.dataTransfer?.files ?? [])]);
      }}
    >
      {children}
    </section>
  );
}
