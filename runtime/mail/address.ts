/**
 * Addresses and header values of a message (docs/mail.md "Addresses and header injection"). Every value that becomes a header (a
 * subject, a display name, an address) is refused when it holds a CR or a LF: written as is, it would end the
 * header and start another one (header injection), so such a message is never queued nor sent.
 */

/** An address with an optional display name, as nodemailer takes it (it quotes and encodes the name). */
export interface MailAddress {
  readonly name?: string;
  readonly address: string;
}

/** What a message field accepts: `alice@example.com`, `Alice <alice@example.com>`, or `{ name, address }`. */
export type AddressInput = string | MailAddress;

/** An address or a value refused (invalid, or carrying a line break); `field` names which. */
export class MailAddressError extends Error {
  readonly code: 'invalid_address' | 'header_injection';
  constructor(
    readonly field: string,
    message: string,
    code: 'invalid_address' | 'header_injection',
  ) {
    super(message);
    this.name = 'MailAddressError';
    this.code = code;
  }
}

/** The longest address accepted (RFC 5321's path limit). */
export const ADDRESS_MAX = 254;

const LINE_BREAK = /[\r\n]/;

/** Throws a `header_injection` error when `value` holds a CR or LF. */
export function refuseLineBreaks(field: string, value: string): void {
  if (LINE_BREAK.test(value)) {
    throw new MailAddressError(field, `${field} : retour à la ligne (CR ou LF) refusé, il permettrait d'ajouter des en-têtes au message.`, 'header_injection');
  }
}

/**
 * A pragmatic check, not RFC 5322: one `@`, a local part of 1 to 64 characters, a domain with a dot that neither
 * starts nor ends it and no `..`, no whitespace, control character, `<`, `>`, `,`, `;` or quote, at most 254 characters.
 */
export function isValidMailAddress(address: string): boolean {
  if (address.length === 0 || address.length > ADDRESS_MAX) return false;
  if (/[\s\u0000-\u001f\u007f<>,;"()[\]\\]/.test(address)) return false;
  const at = address.indexOf('@');
  if (at <= 0 || at > 64 || at !== address.lastIndexOf('@')) return false;
  const domain = address.slice(at + 1);
  const dot = domain.indexOf('.');
  return dot > 0 && !domain.endsWith('.') && !domain.includes('..') && !domain.startsWith('-');
}

/** Parses and checks one address; `field` names it in the error (`to`, `from`, `replyTo`). */
export function parseAddress(field: string, input: AddressInput): MailAddress {
  let name: string | undefined;
  let address: string;
  if (typeof input === 'string') {
    refuseLineBreaks(field, input);
    const match = /^\s*(.*?)\s*<([^<>]*)>\s*$/.exec(input);
    if (match) {
      name = match[1]!.replace(/^"(.*)"$/, '$1');
      address = match[2]!.trim();
    } else {
      address = input.trim();
    }
  } else if (input && typeof input === 'object' && typeof input.address === 'string') {
    if (input.name !== undefined && typeof input.name !== 'string')
      throw new MailAddressError(field, `${field} : le nom doit être une chaîne.`, 'invalid_address');
    name = input.name;
    refuseLineBreaks(field, input.address);
    if (name !== undefined) refuseLineBreaks(`${field} (nom)`, name);
    address = input.address.trim();
  } else {
    throw new MailAddressError(field, `${field} : adresse attendue (chaîne ou { name, address }).`, 'invalid_address');
  }
  if (!isValidMailAddress(address)) {
    throw new MailAddressError(field, `${field} : adresse invalide « ${address.slice(0, 80)} ».`, 'invalid_address');
  }
  return name ? { name, address } : { address };
}

/** One or several addresses; at least one. */
export function parseAddressList(field: string, input: AddressInput | readonly AddressInput[]): MailAddress[] {
  const list = Array.isArray(input) ? (input as readonly AddressInput[]) : [input as AddressInput];
  if (list.length === 0) throw new MailAddressError(field, `${field} : au moins une adresse.`, 'invalid_address');
  return list.map((item) => parseAddress(field, item));
}

/** `Name <address>` or `address`, for the log and the console (never parsed back). */
export function formatAddress(address: MailAddress): string {
  return address.name ? `${address.name} <${address.address}>` : address.address;
}
