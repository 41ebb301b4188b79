import type { ComponentChild } from 'preact';
import { Message } from '../../components/Message';
import { t } from '../../lib/i18n';
import { contactsOf } from '../../lib/payments/bip353/source';
import { type PageView, serverOf } from '../../lib/payments/index';
import { isPrivateUrl } from '../../lib/payments/private-address';
import { hostOf } from './format';

type Asking = Extract<PageView, { state: 'confirm' | 'permission' | 'private' }>;

/**
 * Before contacting a server, one card with one button: the confirm button (allowed already), the
 * permission question, or, for an address on this machine or a private network, the person's
 * word that payments may go there.
 */
export function AskServer({ view, onAsk }: { view: Asking; onAsk: () => void }) {
  const { source } = view;
  const contacts = contactsOf(source, serverOf(source));
  // The private card names the private address among those the look-up contacts.
  const server = (view.state === 'private' && contacts.find(isPrivateUrl)) || contacts[0]!;
  const host = hostOf(server);
  const lnurl = source.kind === 'lnurl';
  const link = <span class="mono">{lnurl ? source.target.label : server}</span>;
  const card: { id: string; heading: string; text: ComponentChild; button: string; label: string } =
    view.state === 'private'
      ? {
          id: 'private',
          heading: t('payPrivateHeading', host),
          text: <Message id="payPrivateText" args={[<span class="mono">{server}</span>]} />,
          button: 'allow-private',
          label: t('payPrivateAllowButton', host),
        }
      : source.kind === 'name' || (source.kind === 'lnurl' && source.name)
        ? nameCard(view.state, source.kind === 'name' ? source.name.display : source.text, contacts)
        : view.state === 'confirm'
          ? {
              id: 'confirm',
              heading: t(lnurl ? 'payLookUpHeading' : 'payConfirmHeading', host),
              text: <Message id={lnurl ? 'payLookUpText' : 'payConfirmText'} args={[link]} />,
              button: 'fetch-request',
              label: t(lnurl ? 'payLookUpButton' : 'payFetchButton'),
            }
          : {
              id: 'permission',
              heading: t('payPermissionHeading', host),
              text: <Message id={lnurl ? 'payPermissionLookUpText' : 'payPermissionText'} args={[link]} />,
              button: 'allow',
              label: t(lnurl ? 'payAllowLookUpButton' : 'payAllowButton'),
            };
  return (
    <section
      class="card"
      aria-labelledby={`${card.id}-h`}
      id={card.id === 'private' ? 'private-host' : card.id}
    >
      <h2 id={`${card.id}-h`}>{card.heading}</h2>
      <p>{card.text}</p>
      {view.state !== 'permission' && source.pageUrl && (
        <p class="small muted">
          <Message id="payLinkedFrom" args={[<span class="mono">{source.pageUrl}</span>]} />
        </p>
      )}
      <button type="button" id={card.button} onClick={onAsk}>
        {card.label}
      </button>
    </section>
  );
}

/**
 * The card for a name: a BIP 353 name asked of the resolver (the first contact), and for a plain
 * user@domain the Lightning Address's site after it.
 */
function nameCard(state: 'confirm' | 'permission', name: string, contacts: string[]) {
  const resolver = <span class="mono">{contacts[0]}</span>;
  const address = contacts[1] ? <span class="mono">{hostOf(contacts[1])}</span> : undefined;
  const what = <bdi class="mono">{name}</bdi>;
  const text = address ? (
    <Message id="payNameOrAddressText" args={[what, resolver, address]} />
  ) : (
    <Message id="payNameLookUpText" args={[what, resolver]} />
  );
  return state === 'confirm'
    ? {
        id: 'confirm',
        heading: t('payNameLookUpHeading', name),
        text,
        button: 'fetch-request',
        label: t('payLookUpButton'),
      }
    : {
        id: 'permission',
        heading: t('payPermissionHeading', contacts.map(hostOf).join(', ')),
        text: (
          <>
            {text} {t('payNamePermissionText')}
          </>
        ),
        button: 'allow',
        label: t('payAllowLookUpButton'),
      };
}
