import { formatBtc } from '../../lib/payments/index';

/** 0.0015 BTC, exactly. */
export const btc = (satoshis: bigint) => `${formatBtc(satoshis)} BTC`;

const unit = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** 3725 → "1 hour 2 minutes"; 95 → "1 minute 35 seconds"; whole and rounded down. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  if (s >= 1e11) return 'thousands of years';
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  if (days >= 365) return unit(Math.floor(days / 365), 'year');
  if (days > 0) return hours > 0 ? `${unit(days, 'day')} ${unit(hours, 'hour')}` : unit(days, 'day');
  if (hours > 0)
    return minutes > 0 ? `${unit(hours, 'hour')} ${unit(minutes, 'minute')}` : unit(hours, 'hour');
  if (minutes > 0) return `${unit(minutes, 'minute')} ${unit(seconds, 'second')}`;
  return unit(seconds, 'second');
}

/** Seconds since the epoch (bigint) as a local date and time, or a plain sentence when out of range. */
export function formatSeconds(seconds: bigint): string {
  if (seconds > 8_640_000_000_000n) return 'a date too far in the future to show';
  return new Date(Number(seconds) * 1000).toLocaleString();
}

export function networkName(network: string): string {
  if (network === 'main') return 'Bitcoin (main network)';
  if (network === 'test') return 'Bitcoin test network (its coins have no value)';
  return `an unknown network (“${network.slice(0, 40)}”)`;
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 60);
  }
}
