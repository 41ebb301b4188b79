// Options section: the addresses on this computer or a private network that the person allowed the
// payment page to contact (its "Allow payments with …" button), each with a button that takes it
// back; the payment page then waits for the person again before it contacts that address.
import { useEffect, useState } from 'preact/hooks';
import { t } from '../lib/i18n';
import { forgetPrivateOrigin, paymentPrivateOriginsItem } from '../platform/payments/private-hosts';
import { RevocableList } from './RevocableList';

export function PaymentOriginsSection() {
  const [origins, setOrigins] = useState<string[]>();
  const [status, setStatus] = useState('');

  useEffect(() => {
    paymentPrivateOriginsItem.getValue().then(setOrigins);
    // Allowed on a payment page while this page is open: shown at once.
    return paymentPrivateOriginsItem.watch((next) => setOrigins(next ?? []));
  }, []);

  async function forget(origin: string) {
    await forgetPrivateOrigin(origin);
    setStatus(t('paymentOriginForgotten', origin));
  }

  return (
    <section class="card" id="payment-origins" aria-labelledby="payment-origins-h">
      <h2 id="payment-origins-h">{t('paymentOriginsHeading')}</h2>
      <p class="small">{t('paymentOriginsExplained')}</p>
      <RevocableList items={origins} none={t('paymentOriginsNone')} status={status} onRevoke={forget} />
    </section>
  );
}
