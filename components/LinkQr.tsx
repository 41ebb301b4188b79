// A link shown as a QR code on request, to hand it to a phone. The QR holds the whole link,
// key included, so the warning sits next to it.
import { useState } from 'preact/hooks';
import { t } from '../lib/i18n';
import { QrCode } from './QrCode';

/** The QR code of a link, with the warning that matches it. */
export function LinkQrFigure({ link, name, size = 200 }: { link: string; name: string; size?: number }) {
  const hasKey = link.includes('#');
  return (
    <figure>
      <QrCode value={link} label={t('qrLabel', name)} size={size} />
      <figcaption class={hasKey ? 'warn small' : 'small muted'}>
        {t(hasKey ? 'qrWarnKey' : 'qrWarnPlain')}
      </figcaption>
    </figure>
  );
}

/** A button that shows and hides the QR code (the upload page's finished job). */
export function LinkQr({ link, name, size = 200 }: { link: string; name: string; size?: number }) {
  const [shown, setShown] = useState(false);
  return (
    <div class="link-qr">
      <button type="button" class="secondary" aria-expanded={shown} onClick={() => setShown(!shown)}>
        {t(shown ? 'qrHide' : 'qrShow')}
      </button>
      {shown && <LinkQrFigure link={link} name={name} size={size} />}
    </div>
  );
}
