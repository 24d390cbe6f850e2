/**
 * The enrolment QR code as inline SVG, made on the server with the qrcode package: no script, no image request,
 * no `data:` URL, and only presentation attributes (no `style`), so it renders under the framework's CSP
 * (`style-src 'self'`, no inline script). qrcode is loaded on the first enrolment page, not at start.
 */
export async function qrCodeSvg(text: string, label: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const svg = (await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } })).trim();
  if (!svg.startsWith('<svg ')) throw new Error("qrcode n'a pas produit de SVG.");
  const attributes = `role="img" aria-label="${escapeAttribute(label)}" class="h-48 w-48 sm:h-56 sm:w-56" focusable="false" `;
  return `<svg ${attributes}${svg.slice('<svg '.length)}`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
