import { Fragment } from 'preact';
import { t } from '../../lib/i18n';
import { formatAmountForPeople } from '../../lib/payments/amounts';
import { type Bolt11Invoice, INVOICE_FEATURES } from '../../lib/payments/bolt11';
import type { Bip21Details, LnurlDetails } from '../../lib/payments/request';
import { formatDuration } from './format';

/**
 * What only one kind of request carries: a bitcoin: URI's parameters and other ways to pay, an
 * LNURL service's terms, a Lightning invoice's every field. All of it is text from the request.
 */

const PRESENT_ONLY = {
  sp: 'payOfferSp',
  pj: 'payOfferPj',
  pay: 'payOfferPay',
} as const;

export function UriFacts({ details }: { details: Bip21Details }) {
  const { uri, address, segwit, invoices, offers, presentOnly, lnurl } = details;
  return (
    <dl class="facts" id="uri-facts">
      {address && (
        <>
          <dt>{t('payOnChainAddress')}</dt>
          <dd>
            <bdi class="mono" id="onchain-address">
              {address.address}
            </bdi>
          </dd>
        </>
      )}
      {segwit.map((a) => (
        <Fragment key={a.address}>
          <dt>{t('payOnChainAlternative')}</dt>
          <dd>
            <bdi class="mono">{a.address}</bdi>
          </dd>
        </Fragment>
      ))}
      {uri.label !== undefined && (
        <>
          <dt>{t('payLabel')}</dt>
          <dd>
            <bdi id="label">{uri.label}</bdi>
          </dd>
        </>
      )}
      {uri.message !== undefined && (
        <>
          <dt>{t('payMessage')}</dt>
          <dd>
            <bdi>{uri.message}</bdi>
          </dd>
        </>
      )}
      {invoices.map((invoice) => (
        <Fragment key={invoice.invoice}>
          <dt>{t('payLightningInvoice')}</dt>
          <dd class="lightning-invoice">
            {invoice.amountMsat !== undefined
              ? formatAmountForPeople({ value: invoice.amountMsat, unit: 'msat' })
              : t('payYouChoose')}
            {' · '}
            <bdi class="mono small">{invoice.payeeNodeKey}</bdi>
            {invoice.description !== undefined && (
              <div>
                <bdi>{invoice.description}</bdi>
              </div>
            )}
          </dd>
        </Fragment>
      ))}
      {offers.map((offer) => (
        <Fragment key={offer.offer}>
          <dt>{t('payLightningOffer')}</dt>
          <dd class="lightning-offer">
            {offer.amount !== undefined
              ? formatAmountForPeople({ value: offer.amount, unit: offer.currency ?? 'msat' })
              : t('payYouChoose')}
            {offer.issuerId && (
              <>
                {' · '}
                <bdi class="mono small">{offer.issuerId}</bdi>
              </>
            )}
            {offer.issuer !== undefined && (
              <div>
                <bdi>{offer.issuer}</bdi>
              </div>
            )}
            {offer.description !== undefined && (
              <div>
                <bdi>{offer.description}</bdi>
              </div>
            )}
          </dd>
        </Fragment>
      ))}
      {lnurl && (
        <>
          <dt>{t('payLightningService')}</dt>
          <dd>
            <bdi class="mono">{lnurl.label}</bdi>
          </dd>
        </>
      )}
      {presentOnly.length > 0 && (
        <>
          <dt>{t('payAlsoOffered')}</dt>
          <dd id="present-only">
            <ul class="bare">
              {presentOnly.map(({ key, value }) => (
                <li key={`${key}${value}`}>
                  {t(PRESENT_ONLY[key])}: <bdi class="mono small">{value.slice(0, 200)}</bdi>
                </li>
              ))}
            </ul>
            <span class="small muted">{t('payNotActedOn')}</span>
          </dd>
        </>
      )}
      {uri.pop && (
        <>
          <dt>{t('payProofOfPayment')}</dt>
          <dd>
            <bdi class="mono small">{uri.pop.uri}</bdi>
          </dd>
        </>
      )}
    </dl>
  );
}

export function LnurlFacts({ details }: { details: LnurlDetails }) {
  const { target, params } = details;
  return (
    <dl class="facts" id="lnurl-facts">
      <dt>{t(target.form === 'address' ? 'payLightningAddress' : 'payLightningService')}</dt>
      <dd>
        <bdi class="mono">{target.label}</bdi>
      </dd>
      {params?.identifier && (
        <>
          <dt>{t('payLnurlIdentifierLabel')}</dt>
          <dd>
            <bdi>{params.identifier}</bdi>
          </dd>
        </>
      )}
      {params?.longDescription && (
        <>
          <dt>{t('payLongDescription')}</dt>
          <dd>
            <blockquote class="memo" id="long-description">
              <bdi>{params.longDescription}</bdi>
            </blockquote>
          </dd>
        </>
      )}
      {params?.hasImage && (
        <>
          <dt>{t('payPicture')}</dt>
          <dd class="muted">{t('payPictureNotShown')}</dd>
        </>
      )}
      {params && (
        <>
          <dt>{t('payInvoicesFrom')}</dt>
          <dd class="mono">{new URL(params.callback).host}</dd>
        </>
      )}
    </dl>
  );
}

function featureName(bit: number): string {
  return INVOICE_FEATURES[bit & ~1] ?? t('payFeatureUnknown', bit);
}

/** Every field of a Lightning invoice, folded away: for people who want to compare them. */
export function InvoiceFields({ invoice }: { invoice: Bolt11Invoice }) {
  const rows: [string, string][] = [
    [t('payPaymentHash'), invoice.paymentHash],
    [t('payPaymentSecret'), invoice.paymentSecret],
    ...(invoice.descriptionHash
      ? [[t('payDescriptionHash'), invoice.descriptionHash] as [string, string]]
      : []),
    ...(invoice.metadata ? [[t('payMetadata'), invoice.metadata] as [string, string]] : []),
    [t('payExpiryField'), formatDuration(Number(invoice.expirySeconds))],
    [t('payMinFinalCltv'), String(invoice.minFinalCltvExpiry)],
    [t('payFeatures'), invoice.features.map((bit) => `${bit} ${featureName(bit)}`).join(', ') || '—'],
    ...invoice.fallbacks.map((f) => [t('payFallbackAddress'), f.address] as [string, string]),
    ...invoice.routes.map(
      (route) =>
        [
          t('payRouteHint'),
          route
            .map(
              (h) =>
                `${h.pubkey} ${h.shortChannelId} (${h.feeBaseMsat} msat + ${h.feeProportionalMillionths} ppm, ${h.cltvExpiryDelta})`,
            )
            .join(' → '),
        ] as [string, string],
    ),
    ...(invoice.unknownFields.length
      ? [[t('payUnknownInvoiceFields'), invoice.unknownFields.join(', ')] as [string, string]]
      : []),
    [t('paySignature'), `${invoice.signature} (${invoice.recoveryId})`],
  ];
  return <AllFields id="invoice-fields" summary={t('payAllInvoiceFields')} rows={rows} />;
}

/** Label and value rows, folded away under `summary`. */
export function AllFields({ id, summary, rows }: { id: string; summary: string; rows: [string, string][] }) {
  return (
    <details id={id}>
      <summary>{summary}</summary>
      <dl class="facts">
        {rows.map(([label, value]) => (
          <Fragment key={`${label}${value}`}>
            <dt>{label}</dt>
            <dd class="mono small">{value}</dd>
          </Fragment>
        ))}
      </dl>
    </details>
  );
}
