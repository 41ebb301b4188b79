// A QR code of a link, drawn as SVG elements (no markup, no image from elsewhere: the page's CSP
// allows neither), dark on light whatever the colour scheme, so that phone cameras read it.
import { qrModules } from '../../../lib/qr-modules';

const SVG = 'http://www.w3.org/2000/svg';

function svgEl(tag: string, attributes: Record<string, string>): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** The code, or undefined when the link is too long for one. */
export function qrCode(text: string, label: string): SVGElement | undefined {
  const modules = qrModules(text);
  if (modules.kind === 'too-long') return undefined;
  const size = String(modules.size);
  const svg = svgEl('svg', {
    viewBox: `0 0 ${size} ${size}`,
    role: 'img',
    'aria-label': label,
    class: 'qr',
    'shape-rendering': 'crispEdges',
  });
  svg.append(
    svgEl('rect', { width: size, height: size, fill: '#ffffff' }),
    svgEl('path', { d: modules.path, fill: '#000000' }),
  );
  return svg;
}
