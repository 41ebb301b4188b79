import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { formatAmountForPeople, parseSatToMsat } from '../../lib/payments/amounts';
import type { LnurlPayParams, LnurlTarget } from '../../lib/payments/lnurl';
import type { CheckedRequest } from '../../lib/payments/request';
import { askToContact } from '../../platform/payments/access';
import { paymentFlow } from '../../platform/payments/flow';
import { hostOf } from './format';

/**
 * An LNURL-pay service's amount, chosen by the person (within its limits), then its invoice:
 * asked for only now, from the address the terms gave, with the browser's permission asked on
 * this click. The invoice comes back judged against the terms (description hash, amount).
 */
export function LnurlAmount({
  target,
  params,
  onInvoice,
}: {
  target: LnurlTarget;
  params: LnurlPayParams;
  onInvoice: (checked: CheckedRequest) => void;
}) {
  const fixed = params.minSendableMsat === params.maxSendableMsat;
  const [sat, setSat] = useState(() => satText(params.minSendableMsat));
  const [phase, setPhase] = useState<{ busy: boolean; error?: string }>({ busy: false });

  async function submit(e: Event) {
    e.preventDefault();
    const msat = parseSatToMsat(sat);
    if (msat === undefined || msat < params.minSendableMsat || msat > params.maxSendableMsat) {
      setPhase({ busy: false, error: t('payLnurlOutOfLimits') });
      return;
    }
    // Asked inside the click: browsers only show the prompt for a user action.
    const allowed = await askToContact(params.callback).catch(() => false);
    if (!allowed) {
      setPhase({ busy: false, error: t('payNotAllowed', hostOf(params.callback)) });
      return;
    }
    setPhase({ busy: true });
    try {
      onInvoice(await paymentFlow.invoiceFor({ target }, params, msat));
      setPhase({ busy: false });
    } catch (err) {
      setPhase({ busy: false, error: paymentFlow.describeFailure(err).message });
    }
  }

  return (
    <section class="card" aria-labelledby="lnurl-h" id="lnurl-amount">
      <h2 id="lnurl-h">{t('payLnurlAmountHeading')}</h2>
      <form onSubmit={submit} noValidate>
        <label for="lnurl-sat">{t('payLnurlAmountLabel')}</label>
        <div class="row">
          <input
            id="lnurl-sat"
            class="mono"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            readOnly={fixed}
            aria-describedby="lnurl-limits"
            value={sat}
            onInput={(e) => setSat(e.currentTarget.value)}
          />
          <button id="lnurl-get" type="submit" disabled={phase.busy}>
            {t(phase.busy ? 'payLnurlAsking' : 'payLnurlGetInvoice')}
          </button>
        </div>
        <p id="lnurl-limits" class="small muted">
          {t(
            'payLnurlLimitsText',
            formatAmountForPeople({ value: params.minSendableMsat, unit: 'msat' }),
            formatAmountForPeople({ value: params.maxSendableMsat, unit: 'msat' }),
          )}
        </p>
      </form>
      {phase.error && (
        <p class="error" role="alert" id="lnurl-error">
          {phase.error}
        </p>
      )}
    </section>
  );
}

/** Millisatoshis as satoshis for the amount field, rounded up to what the service accepts. */
function satText(msat: bigint): string {
  const whole = msat / 1000n;
  const rest = msat % 1000n;
  return rest === 0n ? whole.toString() : `${whole}.${rest.toString().padStart(3, '0').replace(/0+$/, '')}`;
}
