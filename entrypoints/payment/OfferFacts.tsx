import { Fragment } from 'preact';
import { plural, t } from '../../lib/i18n';
import type { BlindedPath, Bolt12Offer } from '../../lib/payments/bolt12';
import { chainName } from '../../lib/payments/request';
import { AllFields } from './KindDetails';

/**
 * What only a Lightning offer (BOLT 12) carries: who it says issued it, the amount's currency when
 * it is not bitcoin, how many items it sells at once, the chains, the blinded paths that lead to
 * the issuer, and the fields Hushdrop shows but does not act on. Text from the offer is Preact
 * text inside <bdi>.
 */
export function OfferFacts({ offer }: { offer: Bolt12Offer }) {
  return (
    <>
      <dl class="facts" id="offer-facts">
        {offer.issuer !== undefined && (
          <>
            <dt>{t('payOfferIssuer')}</dt>
            <dd>
              <bdi id="offer-issuer">{offer.issuer}</bdi>
            </dd>
          </>
        )}
        {offer.currency && (
          <>
            <dt>{t('payOfferCurrency')}</dt>
            <dd id="offer-currency">{t('payOfferCurrencyNote', offer.currency)}</dd>
          </>
        )}
        {offer.quantityMax !== undefined && (
          <>
            <dt>{t('payOfferQuantity')}</dt>
            <dd id="offer-quantity">
              {offer.quantityMax === 0n
                ? t('payOfferQuantityAny')
                : t('payOfferQuantityUpTo', offer.quantityMax.toString())}
            </dd>
          </>
        )}
        {offer.chains.length > 0 && (
          <>
            <dt>{t('payOfferChains')}</dt>
            <dd id="offer-chains">
              {offer.chains
                .map((c) => (c.network ? chainName(c.network) : t('payOfferChainOther', c.hash)))
                .join(', ')}
            </dd>
          </>
        )}
        {offer.paths.map((path, i) => (
          <Fragment key={`${i}${path.firstPathKey}`}>
            <dt>{t('payOfferPath')}</dt>
            <dd class="offer-path">
              <bdi class="mono small">{introduction(path)}</bdi> {plural('payOfferHops', path.hops.length)}
            </dd>
          </Fragment>
        ))}
        {offer.absoluteExpiry === undefined && (
          <>
            <dt>{t('payExpires')}</dt>
            <dd>{t('payNoExpiry')}</dd>
          </>
        )}
      </dl>
      <p class="small" id="offer-caution">
        {t('payOfferNotShop')}
      </p>
      <OfferFields offer={offer} />
    </>
  );
}

function introduction(path: BlindedPath): string {
  const first = path.firstNode;
  return 'nodeId' in first
    ? t('payOfferViaNode', first.nodeId)
    : t('payOfferViaChannel', first.shortChannelId, first.direction);
}

/** The rest, folded away: for people who want to compare every field. */
function OfferFields({ offer }: { offer: Bolt12Offer }) {
  const rows: [string, string][] = [
    ...(offer.issuerId ? [[t('payOfferIssuerKey'), offer.issuerId] as [string, string]] : []),
    ...offer.paths.flatMap((path) =>
      path.hops.map((hop) => [t('payOfferBlindedHop'), hop.blindedNodeId] as [string, string]),
    ),
    ...(offer.metadata ? [[t('payMetadata'), offer.metadata] as [string, string]] : []),
    [t('payFeatures'), offer.features.map((bit) => `${bit} ${t('payFeatureUnknown')}`).join(', ') || '—'],
    ...(offer.unknownFields.length
      ? [[t('payOfferUnknownFields'), offer.unknownFields.join(', ')] as [string, string]]
      : []),
  ];
  return <AllFields id="offer-fields" summary={t('payAllOfferFields')} rows={rows} />;
}
