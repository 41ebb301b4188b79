import { plural, t } from '../../lib/i18n';
import { formatBtcForPeople, type Verdict } from '../../lib/payments/index';

/** 0.0015 BTC, exactly, with the language's decimal sign. */
export const btc = formatBtcForPeople;

/** 3725 → "1 hour 2 minutes"; 95 → "1 minute 35 seconds"; 900 → "15 minutes"; whole, rounded down. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  if (s >= 1e11) return t('payDurationMillennia');
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  const two = (a: string, b: string) => t('payDurationTwo', a, b);
  if (days >= 365) return plural('payYears', Math.floor(days / 365));
  if (days > 0)
    return hours > 0 ? two(plural('payDays', days), plural('payHours', hours)) : plural('payDays', days);
  if (hours > 0)
    return minutes > 0
      ? two(plural('payHours', hours), plural('payMinutes', minutes))
      : plural('payHours', hours);
  if (minutes > 0)
    return seconds > 0
      ? two(plural('payMinutes', minutes), plural('paySeconds', seconds))
      : plural('payMinutes', minutes);
  return plural('paySeconds', seconds);
}

export function networkName(network: string): string {
  if (network === 'main') return t('payNetworkMain');
  if (network === 'test') return t('payNetworkTestName');
  return t('payNetworkOther', network.slice(0, 40));
}

/** The one word for a verdict, on badges and in the recent list. */
export function verdictWord(verdict: Verdict): string {
  return t(
    verdict === 'verified'
      ? 'payVerdictVerified'
      : verdict === 'unsigned'
        ? 'payVerdictUnsigned'
        : 'payVerdictInvalid',
  );
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 60);
  }
}
