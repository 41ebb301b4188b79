// A link shown as a QR code on request, to hand it to a phone. The QR holds the whole link,
// key included, so the warning sits next to it.
import { useState } from 'preact/hooks';
import { QrCode } from './QrCode';

export function LinkQr({ link, name, size = 200 }: { link: string; name: string; size?: number }) {
  const [shown, setShown] = useState(false);
  const hasKey = link.includes('#');
  return (
    <div class="link-qr">
      <button type="button" class="secondary" aria-expanded={shown} onClick={() => setShown(!shown)}>
        {shown ? 'Hide QR code' : 'QR code'}
      </button>
      {shown && (
        <figure>
          <QrCode value={link} label={`QR code of the link to ${name}`} size={size} />
          <figcaption class={hasKey ? 'warn small' : 'small muted'}>
            {hasKey
              ? 'This QR code holds the whole link, key included: anyone who sees it, on a shared screen or in a photo, can open the file.'
              : 'This QR code holds the link: anyone who sees it can download the file.'}
          </figcaption>
        </figure>
      )}
    </div>
  );
}
