import { CopyField } from '../../components/CopyField';
import { QrCode } from '../../components/QrCode';
import { t } from '../../lib/i18n';
import { formatBtc } from '../../lib/payments/index';

/**
 * Paying with a wallet: a QR code and link of a bitcoin: URI, and the address, amount and URI to
 * copy. Hushdrop holds no keys; this is how the money actually moves.
 */
export function PayWithWallet({
  uri,
  address,
  amount,
  note,
}: {
  uri: string;
  address?: string;
  /** Satoshis; undefined or 0 when the payer chooses. */
  amount?: bigint;
  note?: string;
}) {
  return (
    <section class="card" aria-labelledby="wallet-h" id="pay-wallet">
      <h2 id="wallet-h">{t('payWalletHeading')}</h2>
      <div class="pay-grid">
        <div class="qr-box">
          <QrCode value={uri} label={address ? t('payQrLabelAddress', address) : t('payQrLabel')} />
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
      <CopyField id="copy-uri" label={t('payBitcoinLink')} value={uri} />
    </section>
  );
}
