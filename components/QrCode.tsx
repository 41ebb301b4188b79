import { useMemo } from 'preact/hooks';
import { encode } from 'uqr';

/**
 * A QR code drawn as SVG elements from uqr's module matrix (no markup strings). Dark on a white
 * quiet zone in every colour scheme, since phone cameras expect that.
 */
export function QrCode({ value, label, size = 224 }: { value: string; label: string; size?: number }) {
  const qr = useMemo(() => encode(value, { ecc: 'M', border: 4 }), [value]);
  const path = useMemo(() => {
    const parts: string[] = [];
    qr.data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
      });
    });
    return parts.join('');
  }, [qr]);
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
      <path d={path} fill="#000000" />
    </svg>
  );
}
