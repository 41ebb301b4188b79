import { Message } from '../../components/Message';
import { t } from '../../lib/i18n';
import { formatTime } from '../../lib/payments/expiry';
import type { Bip353Details, NameLookup, Signer } from '../../lib/payments/request';

/**
 * What a BIP 353 name adds to a request: who vouches for it (the DNSSEC chain Hushdrop checked),
 * which look-up answered a plain user@domain, and how the name was checked. All text from DNS is
 * rendered as text.
 */

export function NameSigned({ signer }: { signer: Extract<Signer, { kind: 'dnssec' }> }) {
  return (
    <>
      <p>
        <Message
          id="payNameSigned"
          args={[
            <bdi class="mono" id="bip353-name">
              {signer.name}
            </bdi>,
          ]}
        />
      </p>
      <p class="small" id="name-caution">
        {t('payNameNotShop')}
      </p>
    </>
  );
}

export function AnsweredBy({ lookup }: { lookup: NameLookup }) {
  return (
    <p class="small" id="answered-by" data-answered-by={lookup.answeredBy}>
      {lookup.answeredBy === 'bip353' ? t('payAnsweredByName') : t('payAnsweredByAddress', lookup.why ?? '')}
    </p>
  );
}

export function NameFacts({ details }: { details: Bip353Details }) {
  const aliases = details.path && details.path.length > 1 ? details.path.slice(1) : [];
  return (
    <dl class="facts" id="name-facts">
      <dt>{t('payNameLabel')}</dt>
      <dd>
        <bdi class="mono">{details.name}</bdi>
      </dd>
      {details.resolver && (
        <>
          <dt>{t('payNameResolver')}</dt>
          <dd class="mono" id="name-resolver">
            {details.resolver}
          </dd>
        </>
      )}
      {details.zones && (
        <>
          <dt>{t('payNameZones')}</dt>
          <dd class="mono" id="name-zones">
            {details.zones.join(' → ')}
          </dd>
        </>
      )}
      {aliases.length > 0 && (
        <>
          <dt>{t('payNameLedTo')}</dt>
          <dd class="mono" id="name-aliases">
            {aliases.join(' → ')}
          </dd>
        </>
      )}
      {details.wildcard && (
        <>
          <dt>{t('payNameWildcardLabel')}</dt>
          <dd id="name-wildcard">{t('payNameWildcard')}</dd>
        </>
      )}
      {details.signaturesUntil !== undefined && (
        <>
          <dt>{t('payNameSignedUntil')}</dt>
          <dd>{formatTime(details.signaturesUntil)}</dd>
        </>
      )}
    </dl>
  );
}
