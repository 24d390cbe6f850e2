// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Tag)
// Entity Tag (mvc/entities/tag/tag.json), table tag.
// Business code goes in tag.ts (class Tag extends TagBase), which is never overwritten.

/** Field values of Tag, by field name. */
export interface TagData {
  id: number | null;
  libelle: string;
}

/** A row of table tag, by SQL column (booleans as 0 / 1). */
export interface TagRow {
  Id: number | null;
  Libelle: string;
}

export class TagBase {
  static readonly entity = 'Tag';
  static readonly table = 'tag';
  static readonly primaryKey = 'id';
  /** Field name -> SQL column. */
  static readonly columns = {
    id: 'Id',
    libelle: 'Libelle',
  } as const;

  id: number | null;
  libelle: string;

  /** A missing value is null (nullable fields), false, '' or an empty byte array; a missing number stays undefined until validate() reports it. */
  constructor(data: Partial<TagData> = {}) {
    this.id = data.id ?? null;
    this.libelle = data.libelle ?? '';
  }

  /** An instance of the class it is called on (`Contact.fromRow(row)` is a `Contact`) from a database row. */
  static fromRow<T extends TagBase>(this: new (data?: Partial<TagData>) => T, row: Record<string, unknown>): T {
    const data: { [K in keyof TagData]?: TagData[K] | undefined } = {
      id: toNumber(row['Id']),
      libelle: toText(row['Libelle']) ?? undefined,
    };
    // The constructor reads undefined as absent (the cast only matters under exactOptionalPropertyTypes).
    return new this(data as Partial<TagData>);
  }

  /** The values by SQL column, ready to bind. */
  toRow(): TagRow {
    return {
      Id: this.id,
      Libelle: this.libelle,
    };
  }

  /** French messages by field name, one per invalid field; empty when the values can be saved. */
  validate(): Record<string, string> {
    const errors: Record<string, string> = {};
    if (isMissing(this.libelle)) errors['libelle'] = 'Le champ « Libelle » est obligatoire.';
    else if (isBlank(this.libelle)) errors['libelle'] = 'Le champ « Libelle » ne peut pas être vide.';
    else if (tooLong(this.libelle, 50)) errors['libelle'] = 'Le champ « Libelle » doit contenir au plus 50 caractères.';
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
