import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { Bolt11Invoice } from '../../lib/payments/bolt11';
import type { PaymentStatus } from '../../lib/payments/lnurl-verify';
import { paymentFlow } from '../../platform/payments/flow';

/**
 * LUD-21: an LNURL service that gave a `verify` address can say whether its invoice was paid.
 * Asked only on the person's click, from the address the service gave on its own origin (the
 * site they allowed); "paid" is shown only with the proof.
 */
export function LnurlVerify({ verify, invoice }: { verify: string; invoice: Bolt11Invoice }) {
  const [phase, setPhase] = useState<{ busy: boolean; status?: PaymentStatus; error?: string }>({
    busy: false,
  });

  async function ask() {
    setPhase({ busy: true });
    try {
      setPhase({ busy: false, status: await paymentFlow.checkPaid(verify, invoice) });
    } catch (err) {
      setPhase({ busy: false, error: paymentFlow.describeFailure(err).message });
    }
  }

  const { status } = phase;
  return (
    <section class="card" aria-labelledby="lnurl-verify-h" id="lnurl-verify">
      <h2 id="lnurl-verify-h">{t('payLnurlVerifyHeading')}</h2>
      <p class="small muted">{t('payLnurlVerifyText', new URL(verify).host)}</p>
      <p>
        <button type="button" class="secondary" id="lnurl-verify-ask" disabled={phase.busy} onClick={ask}>
          {t(phase.busy ? 'payLnurlVerifyAsking' : 'payLnurlVerifyButton')}
        </button>
      </p>
      {status && (
        <p
          id="lnurl-paid"
          role="status"
          data-state={status.state}
          class={status.state === 'paid' ? '' : status.state === 'unpaid' ? 'muted' : 'warn'}
        >
          {status.state === 'paid'
            ? t('payLnurlPaid')
            : status.state === 'unpaid'
              ? t('payLnurlUnpaid')
              : status.reason}
        </p>
      )}
      {status?.state === 'paid' && (
        <p class="small">
          {t('payLnurlPreimage')} <bdi class="mono">{status.preimage}</bdi>
        </p>
      )}
      {phase.error && (
        <p class="error" role="alert" id="lnurl-verify-error">
          {phase.error}
        </p>
      )}
    </section>
  );
}
