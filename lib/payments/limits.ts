/** Size and value limits from BIP70 and what real wallets enforced (notes/bip70.md §7, §11). */

/** Largest PaymentRequest we accept (Bitcoin Core's BIP70_MAX_PAYMENTREQUEST_SIZE). */
export const MAX_PAYMENT_REQUEST_BYTES = 50_000;
/** A Payment a merchant should accept. */
export const MAX_PAYMENT_BYTES = 50_000;
/** A PaymentACK embeds a Payment, hence the larger cap. */
export const MAX_PAYMENT_ACK_BYTES = 60_000;
/** Certificates in pki_data (Core's longest test chain has 9). */
export const MAX_CERTIFICATES = 10;
/** 21,000,000 BTC in satoshis. */
export const MAX_MONEY = 2_100_000_000_000_000n;
