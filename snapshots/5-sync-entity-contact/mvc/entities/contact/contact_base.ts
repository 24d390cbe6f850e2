// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Contact)
// Entity Contact (mvc/entities/contact/contact.json), table contact.
// Business code goes in contact.ts (class Contact extends ContactBase), which is never overwritten.

/** Field values of Contact, by field name. */
export interface ContactData {
  id: number | null;
  nom: string;
  prenom: string;
  email: string;
  date_naissance: string | null;
  solde: string | null;
  nb_visites: number;
  actif: boolean;
  ville_id: number | null;
  code_client: string | null;
}

/** A row of table contact, by SQL column (booleans as 0 / 1). */
export interface ContactRow {
  Id: number | null;
  Nom: string;
  Prenom: string;
  Email: string;
  DateNaissance: string | null;
  Solde: string | null;
  NbVisites: number;
  Actif: number;
  VilleId: number | null;
  CodeClient: string | null;
}

/** Une personne du carnet. */
export class ContactBase {
  static readonly entity = 'Contact';
  static readonly table = 'contact';
  static readonly primaryKey = 'id';
  /** Field name -> SQL column. */
  static readonly columns = {
    id: 'Id',
    nom: 'Nom',
    prenom: 'Prenom',
    email: 'Email',
    date_naissance: 'DateNaissance',
    solde: 'Solde',
    nb_visites: 'NbVisites',
    actif: 'Actif',
    ville_id: 'VilleId',
    code_client: 'CodeClient',
  } as const;

  id: number | null;
  nom: string;
  prenom: string;
  email: string;
  date_naissance: string | null;
  solde: string | null;
  nb_visites: number;
  actif: boolean;
  ville_id: number | null;
  code_client: string | null;

  /** A missing value is null (nullable fields), false, '' or an empty byte array; a missing number stays undefined until validate() reports it. */
  constructor(data: Partial<ContactData> = {}) {
    this.id = data.id ?? null;
    this.nom = data.nom ?? '';
    this.prenom = data.prenom ?? '';
    this.email = data.email ?? '';
    this.date_naissance = data.date_naissance ?? null;
    this.solde = data.solde ?? null;
    this.nb_visites = data.nb_visites as number;
    this.actif = data.actif ?? false;
    this.ville_id = data.ville_id ?? null;
    this.code_client = data.code_client ?? null;
  }

  /** An instance of the class it is called on (`Contact.fromRow(row)` is a `Contact`) from a database row. */
  static fromRow<T extends ContactBase>(this: new (data?: Partial<ContactData>) => T, row: Record<string, unknown>): T {
    const data: { [K in keyof ContactData]?: ContactData[K] | undefined } = {
      id: toNumber(row['Id']),
      nom: toText(row['Nom']) ?? undefined,
      prenom: toText(row['Prenom']) ?? undefined,
      email: toText(row['Email']) ?? undefined,
      date_naissance: toDateText(row['DateNaissance'], false),
      solde: toDecimalText(row['Solde'], 2),
      nb_visites: toNumber(row['NbVisites']) ?? undefined,
      actif: toBool(row['Actif']) ?? undefined,
      ville_id: toNumber(row['VilleId']),
      code_client: toText(row['CodeClient']),
    };
    // The constructor reads undefined as absent (the cast only matters under exactOptionalPropertyTypes).
    return new this(data as Partial<ContactData>);
  }

  /** The values by SQL column, ready to bind. */
  toRow(): ContactRow {
    return {
      Id: this.id,
      Nom: this.nom,
      Prenom: this.prenom,
      Email: this.email,
      DateNaissance: this.date_naissance,
      Solde: toDecimalText(this.solde, 2) ?? null,
      NbVisites: this.nb_visites,
      Actif: this.actif ? 1 : 0,
      VilleId: this.ville_id,
      CodeClient: this.code_client,
    };
  }

  /** French messages by field name, one per invalid field; empty when the values can be saved. */
  validate(): Record<string, string> {
    const errors: Record<string, string> = {};
    if (isMissing(this.nom)) errors['nom'] = 'Le champ « Nom » est obligatoire.';
    else if (isBlank(this.nom)) errors['nom'] = 'Le champ « Nom » ne peut pas être vide.';
    else if (tooLong(this.nom, 250)) errors['nom'] = 'Le champ « Nom » doit contenir au plus 250 caractères.';
    if (isMissing(this.prenom)) errors['prenom'] = 'Le champ « Prenom » est obligatoire.';
    else if (tooLong(this.prenom, 100)) errors['prenom'] = 'Le champ « Prenom » doit contenir au plus 100 caractères.';
    if (isMissing(this.email)) errors['email'] = 'Le champ « Email » est obligatoire.';
    else if (isBlank(this.email)) errors['email'] = 'Le champ « Email » ne peut pas être vide.';
    else if (tooLong(this.email, 190)) errors['email'] = 'Le champ « Email » doit contenir au plus 190 caractères.';
    if (notDecimal(this.solde)) errors['solde'] = 'Le champ « Solde » doit être un nombre décimal (par exemple 12.50).';
    else if (tooManyDecimals(this.solde, 2)) errors['solde'] = 'Le champ « Solde » doit comporter au plus 2 décimales.';
    if (isMissing(this.nb_visites)) errors['nb_visites'] = 'Le champ « Nb visites » est obligatoire.';
    else if (notInteger(this.nb_visites)) errors['nb_visites'] = 'Le champ « Nb visites » doit être un nombre entier.';
    else if (isNegative(this.nb_visites)) errors['nb_visites'] = 'Le champ « Nb visites » doit être un nombre positif ou nul.';
    if (isMissing(this.actif)) errors['actif'] = 'Le champ « Actif » est obligatoire.';
    if (notInteger(this.ville_id)) errors['ville_id'] = 'Le champ « Ville » doit être un nombre entier.';
    else if (isNegative(this.ville_id)) errors['ville_id'] = 'Le champ « Ville » doit être un nombre positif ou nul.';
    if (tooLong(this.code_client, 20)) errors['code_client'] = 'Le champ « Code client » doit contenir au plus 20 caractères.';
    return errors;
  }

  isValid(): boolean {
    return Object.keys(this.validate()).length === 0;
  }
}

/** SQL value -> number (drivers may return BIGINT or DECIMAL as bigint or string); undefined when absent. */
function toNumber(value: unknown): number | null | undefined {
  if (value === undefined || value === null) return value;
  return typeof value === 'number' ? value : Number(value);
}

/** SQL value -> string; undefined when absent. */
function toText(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return value;
  return typeof value === 'string' ? value : String(value);
}

/**
 * DECIMAL value (a string, or a number / bigint from a driver) -> its text with exactly `scale` decimals
 * (`3`, `'3.0'` -> `'3.00'`), by string arithmetic only (never a float); extra decimals are rounded half away
 * from zero, as MariaDB does. A value that is not a number is returned as text, for validate() to report.
 */
function toDecimalText(value: unknown, scale: number): string | null | undefined {
  if (value === undefined || value === null) return value;
  const text = typeof value === 'string' ? value.trim() : String(value);
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || `${m[2]}${m[3] ?? ''}` === '') return text;
  let digits = `${m[2]}${m[3] ?? ''}`;
  let point = (m[2] ?? '').length + Number(m[4] ?? 0);
  if (point < 0) [digits, point] = ['0'.repeat(-point) + digits, 0];
  digits = digits.padEnd(point + scale, '0');
  let units = BigInt(digits.slice(0, point + scale));
  if ((digits[point + scale] ?? '0') >= '5') units += 1n;
  const abs = units.toString().padStart(scale + 1, '0');
  const sign = m[1] === '-' && units !== 0n ? '-' : '';
  return scale === 0 ? `${sign}${abs}` : `${sign}${abs.slice(0, -scale)}.${abs.slice(-scale)}`;
}

/** DATE / DATETIME value -> `YYYY-MM-DD[ HH:MM:SS]`; a driver's Date is read in local time, as mysql2 builds it. */
function toDateText(value: unknown, withTime: boolean): string | null | undefined {
  if (!(value instanceof Date)) return toText(value);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const day = `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
  return withTime ? `${day} ${pad(value.getHours())}:${pad(value.getMinutes())}:${pad(value.getSeconds())}` : day;
}

/** TINYINT(1) value (0 / 1, as number, bigint or string) -> boolean; undefined when absent. */
function toBool(value: unknown): boolean | null | undefined {
  if (value === undefined || value === null) return value;
  return typeof value === 'boolean' ? value : Number(value) !== 0;
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function isBlank(value: unknown): boolean {
  return typeof value === 'string' && value.trim() === '';
}

/** Counted in characters (code points), as VARCHAR(n) counts them. */
function tooLong(value: unknown, max: number): boolean {
  return typeof value === 'string' && [...value].length > max;
}

function notInteger(value: unknown): boolean {
  return !isMissing(value) && !Number.isInteger(value);
}

/** A number below zero, or a decimal string below zero (`-0.00` is zero). */
function isNegative(value: unknown): boolean {
  if (typeof value === 'string') return /^\s*-[\d.]*[1-9]/.test(value);
  return typeof value === 'number' && value < 0;
}

/** Not a decimal written with digits and an optional point (`12.50`, `-3`). */
function notDecimal(value: unknown): boolean {
  return !isMissing(value) && !(typeof value === 'string' && /^[+-]?\d+(?:\.\d+)?$/.test(value.trim()));
}

/** More significant decimals than the column keeps (trailing zeros do not count). */
function tooManyDecimals(value: unknown, scale: number): boolean {
  return typeof value === 'string' && (/\.(\d*?)0*$/.exec(value.trim())?.[1] ?? '').length > scale;
}
