/**
 * A strict JSON reader (RFC 8259) for definition files. Unlike `JSON.parse` it says where a syntax error
 * is (line, column, and the JSON pointer of the enclosing value) in French, and it reports duplicated keys,
 * which `JSON.parse` silently resolves by keeping the last one.
 */
import { pointerTo } from './diagnostics.js';

export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  /** Pointer of the innermost object or array being read when the error was found. */
  readonly pointer: string;
  readonly message: string;
}

export interface DuplicateKey {
  /** Pointer of the repeated key. */
  readonly pointer: string;
  readonly key: string;
}

export type JsonReadResult =
  { readonly ok: true; readonly value: unknown; readonly duplicates: readonly DuplicateKey[] } | { readonly ok: false; readonly error: JsonSyntaxError };

class SyntaxFailure extends Error {
  constructor(
    readonly position: number,
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Reads one JSON document; a leading byte-order mark is ignored. */
export function readJson(text: string): JsonReadResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const reader = new Reader(source);
  try {
    reader.skipSpace();
    if (reader.atEnd()) throw new SyntaxFailure(0, '#', 'le fichier est vide : un objet JSON « { … } » est attendu');
    const value = reader.value('#');
    reader.skipSpace();
    if (!reader.atEnd()) reader.fail('#', `contenu après la fin du document JSON (${reader.describeHere()}) : un fichier ne contient qu'un seul objet`);
    return { ok: true, value, duplicates: reader.duplicates };
  } catch (error) {
    if (!(error instanceof SyntaxFailure)) throw error;
    const { line, column } = lineColumn(source, error.position);
    return { ok: false, error: { line, column, pointer: error.pointer, message: error.reason } };
  }
}

function lineColumn(source: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < position && i < source.length; i++) {
    if (source[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: position - lineStart + 1 };
}

class Reader {
  pos = 0;
  readonly duplicates: DuplicateKey[] = [];

  constructor(private readonly src: string) {}

  atEnd(): boolean {
    return this.pos >= this.src.length;
  }

  fail(pointer: string, reason: string, at = this.pos): never {
    throw new SyntaxFailure(at, pointer, reason);
  }

  describeHere(): string {
    if (this.atEnd()) return 'fin du fichier';
    const ch = this.src[this.pos] ?? '';
    return `« ${ch} »`;
  }

  skipSpace(): void {
    for (;;) {
      const ch = this.src[this.pos];
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
        this.pos++;
      } else if (ch === '/' && (this.src[this.pos + 1] === '/' || this.src[this.pos + 1] === '*')) {
        this.fail('#', 'les commentaires ne sont pas permis en JSON : retirez-les');
      } else {
        return;
      }
    }
  }

  value(pointer: string): unknown {
    this.skipSpace();
    const ch = this.src[this.pos];
    if (ch === '{') return this.object(pointer);
    if (ch === '[') return this.array(pointer);
    if (ch === '"') return this.string(pointer);
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.number(pointer);
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.src.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    if (this.atEnd()) this.fail(pointer, 'fin de fichier inattendue : une valeur est attendue (le fichier est-il tronqué ?)');
    if (ch === "'") this.fail(pointer, 'les chaînes JSON s\'écrivent entre guillemets doubles "…", pas entre apostrophes');
    if (ch === '}' || ch === ']') this.fail(pointer, `valeur attendue avant « ${ch} » : une virgule est-elle en trop ?`);
    this.fail(pointer, `valeur attendue, trouvé ${this.describeHere()} : une chaîne s'écrit entre guillemets doubles, les booléens true / false en minuscules`);
  }

  object(pointer: string): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    const seen = new Set<string>();
    this.pos++; // {
    this.skipSpace();
    if (this.src[this.pos] === '}') {
      this.pos++;
      return result;
    }
    for (;;) {
      this.skipSpace();
      const ch = this.src[this.pos];
      if (ch === '}') this.fail(pointer, 'virgule en trop avant « } » : retirez la dernière virgule');
      if (ch !== '"') {
        if (this.atEnd()) this.fail(pointer, 'fin de fichier inattendue : « } » manquant');
        if (ch === "'") this.fail(pointer, 'les clés JSON s\'écrivent entre guillemets doubles "…", pas entre apostrophes');
        this.fail(pointer, `clé entre guillemets doubles attendue, trouvé ${this.describeHere()}`);
      }
      const keyStart = this.pos;
      const key = this.string(pointer);
      const child = pointerTo(pointer, key);
      if (seen.has(key)) this.duplicates.push({ pointer: child, key });
      seen.add(key);
      this.skipSpace();
      if (this.src[this.pos] !== ':')
        this.fail(pointer, `« : » attendu après la clé « ${key} », trouvé ${this.describeHere()}`, this.atEnd() ? keyStart : this.pos);
      this.pos++;
      // defineProperty: a key named __proto__ must stay a plain key.
      Object.defineProperty(result, key, { value: this.value(child), enumerable: true, writable: true, configurable: true });
      this.skipSpace();
      const next = this.src[this.pos];
      if (next === ',') {
        this.pos++;
        continue;
      }
      if (next === '}') {
        this.pos++;
        return result;
      }
      if (this.atEnd()) this.fail(pointer, 'fin de fichier inattendue : « } » manquant');
      this.fail(pointer, `« , » ou « } » attendu après la valeur de « ${key} », trouvé ${this.describeHere()} : une virgule manque-t-elle ?`);
    }
  }

  array(pointer: string): unknown[] {
    const result: unknown[] = [];
    this.pos++; // [
    this.skipSpace();
    if (this.src[this.pos] === ']') {
      this.pos++;
      return result;
    }
    for (;;) {
      this.skipSpace();
      if (this.src[this.pos] === ']') this.fail(pointer, 'virgule en trop avant « ] » : retirez la dernière virgule');
      result.push(this.value(pointerTo(pointer, result.length)));
      this.skipSpace();
      const next = this.src[this.pos];
      if (next === ',') {
        this.pos++;
        continue;
      }
      if (next === ']') {
        this.pos++;
        return result;
      }
      if (this.atEnd()) this.fail(pointer, 'fin de fichier inattendue : « ] » manquant');
      this.fail(pointer, `« , » ou « ] » attendu dans la liste, trouvé ${this.describeHere()} : une virgule manque-t-elle ?`);
    }
  }

  string(pointer: string): string {
    const start = this.pos;
    this.pos++; // "
    let out = '';
    for (;;) {
      const ch = this.src[this.pos];
      if (ch === undefined) this.fail(pointer, 'chaîne non terminée : un guillemet double « " » manque', start);
      if (ch === '"') {
        this.pos++;
        return out;
      }
      if (ch < ' ') this.fail(pointer, 'retour à la ligne ou caractère de contrôle dans une chaîne : écrivez \\n, ou fermez le guillemet');
      if (ch !== '\\') {
        out += ch;
        this.pos++;
        continue;
      }
      const escape = this.src[this.pos + 1];
      const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
      if (escape !== undefined && escape in simple) {
        out += simple[escape];
        this.pos += 2;
      } else if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(this.src.slice(this.pos + 2, this.pos + 6))) {
        out += String.fromCharCode(parseInt(this.src.slice(this.pos + 2, this.pos + 6), 16));
        this.pos += 6;
      } else {
        this.fail(pointer, `échappement invalide « \\${escape ?? ''} » dans une chaîne : écrivez « \\\\ » pour une barre oblique inverse`);
      }
    }
  }

  number(pointer: string): number {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.src.slice(this.pos));
    const after = match ? this.src[this.pos + match[0].length] : undefined;
    if (!match || (after !== undefined && /[0-9A-Za-z.]/.test(after))) {
      this.fail(pointer, 'nombre invalide : écrivez par exemple 1, 100 ou 2.5 (sans zéro en tête ni guillemets manquants)');
    }
    this.pos += match[0].length;
    return Number(match[0]);
  }
}

/**
 * The offset of the first byte that is not valid UTF-8 (a stray byte, a cut or overlong sequence, a surrogate, a
 * code point past U+10FFFF), or -1 when every byte is. A definition file is UTF-8: a decoder would turn such a byte
 * into U+FFFD, silently, in every message and generated file.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [length, min] = [2, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [length, min] = [3, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [length, min] = [4, 0x10000];
    else return i;
    let code = b & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
      code = (code << 6) | (next & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    i += length;
  }
  return -1;
}

/** Line and column (1-based, in bytes) of a byte offset. */
export function byteLineColumn(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
