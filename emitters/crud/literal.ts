/** Plain data as TypeScript source (the CRUD's description, description.ts): one line when it fits, else one entry per line. */
import { tsString } from '../text.js';

/** A value written as code as it is (an identifier: `Contact`), not as a string. */
export class Code {
  constructor(readonly text: string) {}
}

export type Literal = string | number | boolean | null | Code | readonly Literal[] | { readonly [key: string]: Literal | undefined };

const WIDTH = 120;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function key(name: string, quote: boolean): string {
  return quote ? tsString(name) : name;
}

/** `value` as source at `indent` (spaces of the line it starts on); entries of a multi-line object or array go one level deeper. */
export function literal(value: Literal, indent = 0): string {
  if (value === null) return 'null';
  if (value instanceof Code) return value.text;
  if (typeof value === 'string') return tsString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const inner = ' '.repeat(indent + 2);
  if (Array.isArray(value)) {
    const items = (value as readonly Literal[]).map((item) => literal(item, indent + 2));
    const flat = `[${items.join(', ')}]`;
    if (flat.length + indent <= WIDTH && !flat.includes('\n')) return flat;
    return `[\n${items.map((item) => `${inner}${item},`).join('\n')}\n${' '.repeat(indent)}]`;
  }
  const entries = Object.entries(value as Record<string, Literal | undefined>).filter((entry): entry is [string, Literal] => entry[1] !== undefined);
  if (entries.length === 0) return '{}';
  // As prettier writes keys: quoted only when one of them must be.
  const quote = entries.some(([name]) => !IDENTIFIER.test(name));
  const parts = entries.map(([name, item]) => `${key(name, quote)}: ${literal(item, indent + 2)}`);
  const flat = `{ ${parts.join(', ')} }`;
  if (flat.length + indent <= WIDTH && !flat.includes('\n')) return flat;
  return `{\n${parts.map((part) => `${inner}${part},`).join('\n')}\n${' '.repeat(indent)}}`;
}
