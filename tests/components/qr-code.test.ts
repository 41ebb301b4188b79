// The QrCode component (components/QrCode.tsx) rendered into a DOM: a code for a short text, and
// for a text no QR code holds, the sentence in its place instead of an exception that would stop
// the page around it from drawing.
import { parseHTML } from 'linkedom';
import { h, render } from 'preact';
import { describe, expect, it } from 'vitest';
import { QrCode } from '../../components/QrCode';

function draw(value: string): HTMLElement {
  const { document } = parseHTML('<!doctype html><html><body><main></main></body></html>');
  const main = document.querySelector('main') as unknown as HTMLElement;
  render(h(QrCode, { value, label: 'QR code of the bitcoin: link' }), main);
  return main;
}

describe('QrCode', () => {
  it('draws a short link as an SVG image with its label', () => {
    const main = draw('bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.0015');
    const svg = main.querySelector('svg.qr');
    expect(svg?.getAttribute('aria-label')).toBe('QR code of the bitcoin: link');
    expect(svg?.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    expect(main.querySelector('.qr-too-long')).toBeNull();
  });

  it('says a link too long for any QR code cannot be one, and draws no code', () => {
    const main = draw(`bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?message=${'Order%20'.repeat(400)}`);
    expect(main.querySelector('svg')).toBeNull();
    expect(main.querySelector('.qr-too-long')?.textContent).toBe(
      'Too long for a QR code: copy the link instead.',
    );
  });
});
