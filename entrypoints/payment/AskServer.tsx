import type { ComponentChild } from 'preact';
import { Message } from '../../components/Message';
import { t } from '../../lib/i18n';
import { type PageView, serverOf } from '../../lib/payments/index';
import { hostOf } from './format';

type Asking = Extract<PageView, { state: 'confirm' | 'permission' | 'private' }>;

/**
 * Before contacting a server, one card with one button: the confirm button (allowed already), the
 * permission question, or, for an address on this machine or a private network, the person's
 * word that payments may go there.
 */
export function AskServer({ view, onAsk }: { view: Asking; onAsk: () => void }) {
  const { source } = view;
  const server = serverOf(source);
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
