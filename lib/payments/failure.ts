import { t } from '../i18n';
import { isPaymentError } from './errors';

/**
 * A failure as the sentence the payment page shows, and whether trying the same thing again
 * makes sense. `isSentence` names the caller's own errors whose message is already a sentence
 * for a person and that another try would not fix (the platform's history errors).
 */
export function describePaymentFailure(
  error: unknown,
  isSentence: (error: unknown) => boolean = () => false,
): { message: string; retry: boolean } {
  if (isSentence(error)) return { message: (error as Error).message, retry: false };
  if (isPaymentError(error)) return { message: error.message, retry: error.code === 'unreachable' };
  if (error instanceof Error && error.name === 'AbortError') {
    return { message: t('payCancelled'), retry: true };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { message: t('paySomethingWrong', text.slice(0, 200)), retry: true };
}
