// A Hushdrop server says what it is at `{base_url}/_hushdrop/info` (README, "Running a Hushdrop server"), so a
// client can tell it from any other server of the Teknik API: on it, links of encrypted uploads
// open in any browser (its recipient page).
import type { UploadTarget } from './types';

/** Where a server describes itself: under its base address, whichever variant is used. */
export function serverInfoUrl(target: UploadTarget): string {
  return `${target.addresses.baseUrl.replace(/\/+$/, '')}/_hushdrop/info`;
}

/** Whether an answer from that address is a Hushdrop server's. */
export function isHushdropInfo(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { server?: unknown }).server === 'hushdrop';
}
