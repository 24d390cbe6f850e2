// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Ville)
// Entity Ville (mvc/entities/ville/ville.json), table ville.
// Business code goes in ville.ts (class Ville extends VilleBase), which is never overwritten.

/** Field values of Ville, by field name. */
export interface VilleData {
  id: number | null;
  nom: string;
  code_postal: string;
}

/** A row of table ville, by SQL column (booleans as 0 / 1). */
export interface VilleRow {
  Id: number | null;
  Nom: string;
  CodePostal: string;
}

export class VilleBase {
  static readonly entity = 'Ville';
  static readonly table = 'ville';
  static readonly primaryKey = 'id';
  /** Field name -> SQL column. */
  static readonly columns = {
    id: 'Id',
    nom: 'Nom',
    code_postal: 'CodePostal',
  } as const;

  id: number | null;
  nom: string;
  code_postal: string;

  /** A missing value is null (nullable fields), false, '' or an empty byte array; a missing number stays undefined until validate() reports it. */
  constructor(data: Partial<VilleData> = {}) {
    this.id = data.id ?? null;
    this.nom = data.nom ?? '';
    this.code_postal = data.code_postal ?? '';
  }

  /** An instance of the class it is called on (`Contact.fromRow(row)` is a `Contact`) from a database row. */
  static fromRow<T extends VilleBase>(this: new (data?: Partial<VilleData>) => T, row: Record<string, unknown>): T {
    const data: { [K in keyof VilleData]?: VilleData[K] | undefined } = {
      id: toNumber(row['Id']),
      nom: toText(row['Nom']) ?? undefined,
      code_postal: toText(row['CodePostal']) ?? undefined,
    };
    // The constructor reads undefined as absent (the cast only matters under exactOptionalPropertyTypes).
    return new this(data as Partial<VilleData>);
  }

  /** The values by SQL column, ready to bind. */
  toRow(): VilleRow {
    return {
      Id: this.id,
      Nom: this.nom,
      CodePostal: this.code_postal,
    };
  }

  /** French messages by field name, one per invalid field; empty when the values can be saved. */
  validate(): Record<string, string> {
    const errors: Record<string, string> = {};
    if (isMissing(this.nom)) errors['nom'] = 'Le champ « Nom » est obligatoire.';
    else if (isBlank(this.nom)) errors['nom'] = 'Le champ « Nom » ne peut pas être vide.';
    else if (tooLong(this.nom, 100)) errors['nom'] = 'Le champ « Nom » doit contenir au plus 100 caractères.';
    if (isMissing(this.code_postal)) errors['code_postal'] = 'Le champ « Code postal » est obligatoire.';
    else if (tooLong(this.code_postal, 5)) errors['code_postal'] = 'Le champ « Code postal » doit contenir au plus 5 caractères.';
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
