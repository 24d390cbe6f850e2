// fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Produit)
// Entity Produit (mvc/entities/produit/produit.json), table produits.
// Business code goes in produit.ts (class Produit extends ProduitBase), which is never overwritten.

/** Field values of Produit, by field name. */
export interface ProduitData {
  id: number | null;
  nom: string;
  reference: string;
}

/** A row of table produits, by SQL column (booleans as 0 / 1). */
export interface ProduitRow {
  Id: number | null;
  Nom: string;
  Reference: string;
}

/** Un produit du catalogue */
export class ProduitBase {
  static readonly entity = 'Produit';
  static readonly table = 'produits';
  static readonly primaryKey = 'id';
  /** Field name -> SQL column. */
  static readonly columns = {
    id: 'Id',
    nom: 'Nom',
    reference: 'Reference',
  } as const;

  id: number | null;
  nom: string;
  reference: string;

  /** A missing value is null (nullable fields), false, '' or an empty byte array; a missing number stays undefined until validate() reports it. */
  constructor(data: Partial<ProduitData> = {}) {
    this.id = data.id ?? null;
    this.nom = data.nom ?? '';
    this.reference = data.reference ?? '';
  }

  /** An instance of the class it is called on (`Contact.fromRow(row)` is a `Contact`) from a database row. */
  static fromRow<T extends ProduitBase>(this: new (data?: Partial<ProduitData>) => T, row: Record<string, unknown>): T {
    const data: { [K in keyof ProduitData]?: ProduitData[K] | undefined } = {
      id: toNumber(row['Id']),
      nom: toText(row['Nom']) ?? undefined,
      reference: toText(row['Reference']) ?? undefined,
    };
    // The constructor reads undefined as absent (the cast only matters under exactOptionalPropertyTypes).
    return new this(data as Partial<ProduitData>);
  }

  /** The values by SQL column, ready to bind. */
  toRow(): ProduitRow {
    return {
      Id: this.id,
      Nom: this.nom,
      Reference: this.reference,
    };
  }

  /** French messages by field name, one per invalid field; empty when the values can be saved. */
  validate(): Record<string, string> {
    const errors: Record<string, string> = {};
    if (isMissing(this.nom)) errors['nom'] = 'Le champ « Nom » est obligatoire.';
    else if (isBlank(this.nom)) errors['nom'] = 'Le champ « Nom » ne peut pas être vide.';
    else if (tooLong(this.nom, 100)) errors['nom'] = 'Le champ « Nom » doit contenir au plus 100 caractères.';
    if (isMissing(this.reference)) errors['reference'] = 'Le champ « Reference » est obligatoire.';
    else if (tooLong(this.reference, 30)) errors['reference'] = 'Le champ « Reference » doit contenir au plus 30 caractères.';
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
