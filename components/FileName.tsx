import { displayName } from '../lib/history/file-names';

/**
 * A file name as text, isolated from the text around it (<bdi>) and without bidi controls, so a
 * name like "invoice\u202Efdp.exe" cannot pass itself off as a PDF.
 */
export function FileName({ name }: { name: string }) {
  return <bdi>{displayName(name)}</bdi>;
}
