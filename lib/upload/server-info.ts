// A Hushdrop server says what it is at `_hushdrop/info` (README, "Running a Hushdrop server"), so a
// client can tell it from any other server of the Teknik API: on it, links of encrypted uploads
// open in any browser (its recipient page).
import type { UploadTarget } from './types';

/** Where the server that serves `target`'s links describes itself: beside those links. */
export function serverInfoUrl(target: UploadTarget): string {
  const { baseUrl, uploadUrl } = target.addresses;
  const root = target.variant === 'current' ? uploadUrl : baseUrl;
  return `${root.replace(/\/+$/, '')}/_hushdrop/info`;
}

/** Whether an answer from that address is a Hushdrop server's. */
export function isHushdropInfo(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { server?: unknown }).server === 'hushdrop';
}
