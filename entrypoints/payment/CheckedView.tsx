import { Message } from '../../components/Message';
import { t } from '../../lib/i18n';
import { formatAmountForPeople } from '../../lib/payments/amounts';
import { formatTime } from '../../lib/payments/expiry';
import type { CheckedRequest } from '../../lib/payments/request';
import { chainName } from '../../lib/payments/request';
import { secondsLeft } from '../../lib/payments/timing';
import { InvoiceFields, LnurlFacts, UriFacts } from './KindDetails';
import { LnurlAmount } from './LnurlAmount';
import { LnurlVerify } from './LnurlVerify';
import { AnsweredBy, NameFacts, NameSigned } from './NameDetails';
import { OfferFacts } from './OfferFacts';
import { PayWithWallet } from './PayWithWallet';
import { ExpiryLine } from './RequestView';
import { InvalidReasons, VerdictSection, Warnings } from './VerdictLists';

/**
 * A request judged from its text or looked up (bitcoin: URI, Lightning invoice or offer, LNURL): the
 * verdict and who signed, what it asks for, the kind's own details, and the hand-off to a
 * wallet. Everything from the request is Preact text inside <bdi>.
 */
export function CheckedView({
  checked,
  now,
  pageUrl,
  historyError,
  onInvoice,
}: {
  checked: CheckedRequest;
  now: Date;
  pageUrl?: string;
  historyError?: string;
  /** For an LNURL: the invoice fetched for the amount the person chose. */
  onInvoice?: ((checked: CheckedRequest) => void) | undefined;
}) {
  const expired = (secondsLeft({ expires: checked.expiresAt }, now) ?? 0) < 0;
  const payable = checked.verdict !== 'invalid' && !expired && checked.handOff;
  const params = checked.lnurl?.params;
  return (
    <>
      <CheckedVerdict checked={checked} expired={expired} />
      <CheckedFacts checked={checked} now={now} {...(pageUrl ? { pageUrl } : {})} />
      {params && onInvoice && (
        <LnurlAmount target={checked.lnurl!.target} params={params} onInvoice={onInvoice} />
      )}
      {payable && checked.handOff && (
        <PayWithWallet
          uri={checked.handOff.uri}
          {...(checked.handOff.address ? { address: checked.handOff.address } : {})}
          {...(checked.handOff.amount?.unit === 'sat' ? { amount: checked.handOff.amount.value } : {})}
          {...(checked.handOff.invoice ? { invoice: checked.handOff.invoice } : {})}
          {...(checked.handOff.offer ? { offer: checked.handOff.offer } : {})}
        />
      )}
      {checked.lnurl?.verify && checked.bolt11 && (
        <LnurlVerify verify={checked.lnurl.verify} invoice={checked.bolt11} />
      )}
      {checked.verdict === 'invalid' && (
        <p class="card error" id="not-payable">
          {t('payNotPayable')}
        </p>
      )}
      {historyError && <p class="small warn">{historyError}</p>}
    </>
  );
}

function heading(checked: CheckedRequest): string {
  if (checked.verdict === 'invalid') return t('payInvalidHeading');
  if (checked.kind === 'bolt11') return t('payInvoiceHeading');
  if (checked.kind === 'bolt12') return t('payOfferHeading');
  if (checked.kind === 'lnurl')
    return t(checked.bolt11 ? 'payLnurlInvoiceHeading' : 'payLnurlHeading', checked.lnurl!.target.label);
  if (checked.kind === 'bip353') return t('payNameHeading', checked.bip353!.name);
  return t(checked.verdict === 'verified' ? 'payUriLightningHeading' : 'payPlainHeading');
}

function unsignedText(checked: CheckedRequest): string {
  if (checked.kind === 'lnurl') return t('payLnurlUnsignedText');
  if (checked.kind === 'bolt12') return t('payOfferUnsignedText');
  if (checked.kind === 'bip353') return t('payNameNotLookedUp', checked.bip353!.name);
  return t(checked.amount ? 'payPlainAddressAmount' : 'payPlainAddressOnly');
}

function CheckedVerdict({ checked, expired }: { checked: CheckedRequest; expired: boolean }) {
  const { verdict, signer } = checked;
  return (
    <VerdictSection
      verdict={verdict}
      expired={expired}
      kind={checked.kind}
      heading={<span>{heading(checked)}</span>}
    >
      {verdict === 'verified' && signer?.kind === 'node' && (
        <>
          <p>
            <Message
              id="payNodeSigned"
              args={[
                <bdi class="mono" id="node-key">
                  {signer.nodeKey}
                </bdi>,
              ]}
            />{' '}
            {t(signer.named ? 'payNodeNamed' : 'payNodeRecovered')}
          </p>
          <p class="small" id="node-caution">
            {t('payNodeNotShop')}
          </p>
        </>
      )}
      {verdict === 'verified' && signer?.kind === 'dnssec' && <NameSigned signer={signer} />}
      {verdict === 'unsigned' && <p>{unsignedText(checked)}</p>}
      {checked.lookup && <AnsweredBy lookup={checked.lookup} />}
      {verdict === 'invalid' && <InvalidReasons reasons={checked.reasons} />}
      <Warnings warnings={checked.warnings} />
    </VerdictSection>
  );
}

const KIND_NAME = {
  bip21: 'payKindBip21',
  bolt11: 'payKindBolt11',
  bolt12: 'payKindBolt12',
  lnurl: 'payKindLnurl',
  bip70: 'payKindBip70',
  bip353: 'payKindBip353',
} as const;

function amountText(checked: CheckedRequest): string {
  // An offer's amount is per item when it lets the payer choose a quantity.
  if (checked.amount && checked.bolt12?.quantityMax !== undefined)
    return t('payOfferPerItem', formatAmountForPeople(checked.amount));
  if (checked.amount) return formatAmountForPeople(checked.amount);
  const params = checked.lnurl?.params;
  if (params && !checked.bolt11) {
    return t(
      'payLnurlLimitsText',
      formatAmountForPeople({ value: params.minSendableMsat, unit: 'msat' }),
      formatAmountForPeople({ value: params.maxSendableMsat, unit: 'msat' }),
    );
  }
  return t('payYouChoose');
}

function payeeLabel(checked: CheckedRequest) {
  if (checked.bolt12) return checked.bolt12.issuerId ? 'payOfferIssuerKey' : 'payOfferBlindedKey';
  return checked.signer?.kind === 'node' ? 'payLightningNode' : 'payPayTo';
}

function CheckedFacts({ checked, now, pageUrl }: { checked: CheckedRequest; now: Date; pageUrl?: string }) {
  const invoice = checked.bolt11;
  return (
    <section class="card" aria-labelledby="details-h" id="details">
      <h2 id="details-h">{t(checked.verdict === 'invalid' ? 'payDetailsHeadingInvalid' : 'payAsksFor')}</h2>
      <dl class="facts">
        <dt>{t('payKind')}</dt>
        <dd id="kind">{t(KIND_NAME[checked.kind])}</dd>
        <dt>{t('payAmount')}</dt>
        <dd id="total">
          <strong>{amountText(checked)}</strong>
        </dd>
        {checked.network && (
          <>
            <dt>{t('payNetwork')}</dt>
            <dd id="network">{chainName(checked.network)}</dd>
          </>
        )}
        {checked.payee && (
          <>
            <dt>{t(payeeLabel(checked))}</dt>
            <dd>
              <bdi class="mono" id="payee">
                {checked.payee}
              </bdi>
            </dd>
          </>
        )}
        <dt>{t('payDescription')}</dt>
        <dd>
          {checked.description ? (
            <blockquote class="memo" id="memo">
              <bdi>{checked.description}</bdi>
            </blockquote>
          ) : invoice?.descriptionHash ? (
            <span class="muted">
              <Message
                id="payDescriptionHashOnly"
                args={[<span class="mono">{invoice.descriptionHash}</span>]}
              />
            </span>
          ) : (
            <span class="muted">{t('payNoDescription')}</span>
          )}
        </dd>
        {checked.expiresAt !== undefined && (
          <>
            <dt>{t('payExpires')}</dt>
            <dd>
              <ExpiryLine expires={checked.expiresAt} now={now} />
            </dd>
          </>
        )}
        {checked.createdAt !== undefined && (
          <>
            <dt>{t('payMade')}</dt>
            <dd>{formatTime(checked.createdAt)}</dd>
          </>
        )}
        {pageUrl && (
          <>
            <dt>{t('payFoundOn')}</dt>
            <dd class="mono" id="found-on">
              {pageUrl}
            </dd>
          </>
        )}
      </dl>
      {checked.bip353 && <NameFacts details={checked.bip353} />}
      {(checked.bip21 ?? checked.bip353?.payment?.bip21) && (
        <UriFacts details={(checked.bip21 ?? checked.bip353?.payment?.bip21)!} />
      )}
      {checked.lnurl && <LnurlFacts details={checked.lnurl} />}
      {checked.bolt12 && <OfferFacts offer={checked.bolt12} />}
      {invoice && <InvoiceFields invoice={invoice} />}
    </section>
  );
}
