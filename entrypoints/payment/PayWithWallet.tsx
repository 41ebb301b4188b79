import { CopyField } from '../../components/CopyField';
import { QrCode } from '../../components/QrCode';
import { t } from '../../lib/i18n';
import { formatBtc } from '../../lib/payments/amounts';

/**
 * Paying with a wallet: a QR code and link of a bitcoin: or lightning: URI, and the address,
 * amount, invoice or offer and URI to copy. Hushdrop holds no keys; this is how the money actually moves.
 */
export function PayWithWallet({
  uri,
  address,
  amount,
  invoice,
  offer,
  note,
}: {
  uri: string;
  address?: string;
  /** Satoshis; undefined or 0 when the payer chooses. */
  amount?: bigint;
  /** A Lightning invoice to copy on its own. */
  invoice?: string;
  /** A Lightning offer to copy on its own. */
  offer?: string;
  note?: string;
}) {
  const lightning = uri.toLowerCase().startsWith('lightning:');
  const qrLabel = lightning
    ? t('payQrLabelLightning')
    : address
      ? t('payQrLabelAddress', address)
      : t('payQrLabel');
  return (
    <section class="card" aria-labelledby="wallet-h" id="pay-wallet">
      <h2 id="wallet-h">{t('payWalletHeading')}</h2>
      <div class="pay-grid">
        <div class="qr-box">
          <QrCode value={uri} label={qrLabel} />
        </div>
        <div class="grow">
          <p>{t('payWalletText')}</p>
          <p>
            <a id="wallet-link" class="button" href={uri}>
              {t('payOpenInWallet')}
            </a>
          </p>
          {note && <p class="small muted">{note}</p>}
        </div>
      </div>
      {address && <CopyField id="copy-address" label={t('payAddress')} value={address} />}
      {amount !== undefined && amount > 0n && (
        // As wallets and bitcoin: links write it (a point, no grouping), to paste into a wallet.
        <CopyField id="copy-amount" label={t('payAmountBtc')} value={formatBtc(amount)} />
      )}
      {invoice && <CopyField id="copy-invoice" label={t('payLightningInvoice')} value={invoice} />}
      {offer && <CopyField id="copy-offer" label={t('payLightningOffer')} value={offer} />}
      <CopyField id="copy-uri" label={t(lightning ? 'payLightningLink' : 'payBitcoinLink')} value={uri} />
    </section>
  );
}
