import { useMemo } from 'preact/hooks';
import { t } from '../lib/i18n';
import { qrModules } from '../lib/qr-modules';

/**
 * A QR code drawn as SVG elements from uqr's module matrix (no markup strings). Dark on a white
 * quiet zone in every colour scheme, since phone cameras expect that. A text too long for any QR
 * code gets a sentence in its place, so the page around it (the link, the copy fields) still draws.
 */
export function QrCode({ value, label, size = 224 }: { value: string; label: string; size?: number }) {
  const qr = useMemo(() => qrModules(value), [value]);
  if (qr.kind === 'too-long')
    return (
      <p class="qr-too-long small muted" style={{ maxWidth: `${size}px` }}>
        {t('qrTooLong')}
      </p>
    );
  return (
    <svg
      class="qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      width={size}
      height={size}
      shape-rendering="crispEdges"
    >
      <rect width={qr.size} height={qr.size} fill="#ffffff" />
      <path d={qr.path} fill="#000000" />
    </svg>
  );
}
