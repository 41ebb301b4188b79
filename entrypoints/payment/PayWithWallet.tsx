import { CopyField } from '../../components/CopyField';
import { QrCode } from '../../components/QrCode';
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
      <h2 id="wallet-h">Pay with your wallet</h2>
      <div class="pay-grid">
        <div class="qr-box">
          <QrCode value={uri} label={`QR code of the bitcoin: link${address ? ` paying ${address}` : ''}`} />
        </div>
        <div class="grow">
          <p>Scan the code with your phone’s wallet, or open the link in a wallet on this computer.</p>
          <p>
            <a id="wallet-link" class="button" href={uri}>
              Open in wallet
            </a>
          </p>
          {note && <p class="small muted">{note}</p>}
        </div>
      </div>
      {address && <CopyField id="copy-address" label="Address" value={address} />}
      {amount !== undefined && amount > 0n && (
        <CopyField id="copy-amount" label="Amount (BTC)" value={formatBtc(amount)} />
      )}
      <CopyField id="copy-uri" label="bitcoin: link" value={uri} />
    </section>
  );
}
