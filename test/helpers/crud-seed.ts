// The Contacts application of the HTTP tests, seeded: the French texts its pages must show, 53 contacts in 3 villes
// inserted with SQL, reads of the table with no fw code involved, and `seededApp`, which serves it for one uvu suite.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database, DialectName } from '../../runtime/db/index.js';
import { rowIds } from './crud-html.js';
import { HttpClient, startCrudApp, type CrudApp, type HttpResult } from './crud-app.js';

// --- French texts the pages must show ---

export const EMPTY: Record<string, string> = {
  general: 'Aucun enregistrement pour le moment.',
  search: 'Aucun résultat pour cette recherche.',
  filters: 'Aucun résultat pour ces filtres.',
  search_filters: 'Aucun résultat pour cette recherche avec ces filtres.',
};
export const CONFIRM_DELETE = 'Supprimer définitivement cet enregistrement ?';
export const FLASH = {
  created: 'Enregistrement créé.',
  updated: 'Enregistrement mis à jour.',
  deleted: 'Enregistrement supprimé.',
  bulkDeleted: (count: number): string => `${count} enregistrement(s) supprimé(s).`,
  noneSelected: 'Aucun enregistrement sélectionné.',
};
export const MSG = {
  nomRequired: 'Le champ « Nom » est obligatoire.',
  emailInvalid: 'Le champ « Email » doit être une adresse e-mail valide.',
  duplicate: 'Cette valeur est déjà utilisée.',
};
export const HX = { 'HX-Request': 'true' } as const;
/** The CSV header: the fields' labels, as the pages show them (the relation by its label, « Ville »). */
export const CSV_HEADER = '"Nom";"Prenom";"Email";"Telephone";"Actif";"Ville"';

// --- seed data ---
// Every textual value is ASCII with a consistent case, so that SQLite's binary order and MariaDB's
// utf8mb4_unicode_ci order agree with the comparator below.

export interface ContactRow {
  id: number;
  nom: string;
  prenom: string;
  email: string;
  telephone: string | null;
  actif: number;
  notes: string | null;
  ville_id: number | null;
}
export type NewContact = Omit<ContactRow, 'id'> & { id?: number };

const NOMS = ['Bernard', 'Dubois', 'Durand', 'Laurent', 'Leroy', 'Martin', 'Moreau', 'Petit', 'Richard', 'Robert', 'Simon', 'Thomas'];
const PRENOMS = ['Alice', 'Bruno', 'Chloe', 'David', 'Emma', 'Felix', 'Gabriel', 'Hugo', 'Ines', 'Jules', 'Karim', 'Lea', 'Manon'];
export const VILLES: ReadonlyArray<readonly [number, string]> = [
  [1, 'Lyon'],
  [2, 'Paris'],
  [888, 'Nantes'],
];
const pad2 = (n: number): string => String(n).padStart(2, '0');

/** 48 ordinary contacts and 5 special ones: 53 rows, 3 pages (20, 20, 13); 25 in Lyon, 10 in Paris, 1 in Nantes. */
export function seedContacts(): NewContact[] {
  const rows: NewContact[] = [];
  for (let i = 1; i <= 48; i++) {
    rows.push({
      nom: NOMS[i % 12]!,
      prenom: PRENOMS[i % 13]!,
      email: `c${pad2(i)}@exemple.fr`,
      telephone: i % 3 === 0 ? null : `06 00 00 00 ${pad2(i)}`,
      actif: i % 2,
      notes: i % 4 === 0 ? null : i === 7 ? 'Rappeler mardi' : `Note ${pad2(i)}`,
      ville_id: i % 3 === 0 ? null : i % 3 === 1 || i % 6 === 2 ? 1 : 2,
    });
  }
  rows.push(
    { nom: 'Taux 50% net', prenom: 'Alice', email: 'taux.net@exemple.fr', telephone: null, actif: 1, notes: null, ville_id: 1 },
    { nom: 'Taux 500 brut', prenom: 'Bruno', email: 'taux.brut@exemple.fr', telephone: null, actif: 0, notes: "Taux d'escompte", ville_id: 2 },
    { nom: 'Remise_speciale', prenom: 'Chloe', email: 'remise@exemple.fr', telephone: null, actif: 1, notes: null, ville_id: 2 },
    { nom: 'Hourra!', prenom: 'David', email: 'hourra@exemple.fr', telephone: null, actif: 0, notes: 'Chemin C:\\temp\\x', ville_id: null },
    // No digit 1, 7 or 8 in its text: its id (777), its boolean (1) and its foreign key (888) are not searchable.
    { id: 777, nom: 'Sansun', prenom: 'Zoe', email: 'zoe@exemple.fr', telephone: null, actif: 1, notes: null, ville_id: 888 },
  );
  return rows;
}

export async function withDb<T>(app: CrudApp, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = app.project.open();
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

export async function insertContacts(app: CrudApp, rows: readonly NewContact[]): Promise<void> {
  await withDb(app, async (db) => {
    for (const r of rows) {
      const columns = ['Nom', 'Prenom', 'Email', 'Telephone', 'Actif', 'Notes', 'VilleId'];
      const values: unknown[] = [r.nom, r.prenom, r.email, r.telephone, r.actif, r.notes, r.ville_id];
      if (r.id !== undefined) {
        columns.unshift('Id');
        values.unshift(r.id);
      }
      await db.execute(`INSERT INTO contacts (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, values);
    }
  });
}

/** Every contact as stored (read with the admin account, no fw code involved). */
export async function dbContacts(app: CrudApp): Promise<ContactRow[]> {
  return withDb(app, async (db) => {
    const rows = await db.fetchAll<Record<string, unknown>>('SELECT Id, Nom, Prenom, Email, Telephone, Actif, Notes, VilleId FROM contacts ORDER BY Id');
    return rows.map((r) => ({
      id: Number(r['Id']),
      nom: String(r['Nom']),
      prenom: String(r['Prenom']),
      email: String(r['Email']),
      telephone: r['Telephone'] === null ? null : String(r['Telephone']),
      actif: Number(r['Actif']),
      notes: r['Notes'] === null ? null : String(r['Notes']),
      ville_id: r['VilleId'] === null ? null : Number(r['VilleId']),
    }));
  });
}

export async function dbCount(app: CrudApp): Promise<number> {
  return withDb(app, async (db) => Number((await db.fetchOne<{ n: unknown }>('SELECT COUNT(*) AS n FROM contacts'))!.n));
}

export async function dbContact(app: CrudApp, id: number): Promise<ContactRow | undefined> {
  return (await dbContacts(app)).find((r) => r.id === id);
}

/** null first, numbers by value, text by lower-cased code units (see the seed data). */
export function compare(a: string | number | null, b: string | number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a).toLowerCase();
  const y = String(b).toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

export const TEXT_COLUMNS = ['nom', 'prenom', 'email', 'telephone', 'notes'] as const;

/** The ids a literal, case-insensitive substring search over the textual columns finds. */
export function searchIds(rows: readonly ContactRow[], q: string): number[] {
  const needle = q.toLowerCase();
  return rows.filter((r) => TEXT_COLUMNS.some((c) => (r[c] ?? '').toLowerCase().includes(needle))).map((r) => r.id);
}

// --- the served application, one per suite ---

/** The seeded application of one suite and the requests its tests make. */
export interface SeededApp {
  readonly app: CrudApp;
  readonly client: HttpClient;
  get(url: string, headers?: Record<string, string>): Promise<HttpResult>;
  /** GET a list page (200 expected) and return its row ids. */
  pageIds(url: string, headers?: Record<string, string>): Promise<number[]>;
  /** Every id of a list state, page after page (a page above the last gives the last: stop on a repeat). */
  allIds(query: string): Promise<number[]>;
}

/**
 * Registers on `t` the hooks that serve the Contacts application on `dialect` (test/helpers/crud-app.ts) and insert
 * the villes and the 53 contacts; `beforeSeed` runs on the empty tables. The suite's tests read the returned object.
 */
export function seededApp(t: Test, dialect: DialectName, beforeSeed?: (seeded: SeededApp) => Promise<void>): SeededApp {
  let app: CrudApp | undefined;
  let client: HttpClient | undefined;
  const started = (): { app: CrudApp; client: HttpClient } => {
    if (!app || !client) throw new Error("l'application n'est pas démarrée (hook before en échec ?)");
    return { app, client };
  };
  const seeded: SeededApp = {
    get app() {
      return started().app;
    },
    get client() {
      return started().client;
    },
    get: (url, headers = {}) => started().client.get(url, headers),
    async pageIds(url, headers = {}) {
      const res = await seeded.get(url, headers);
      assert.is(res.status, 200, `${url} : ${res.text.slice(0, 300)}`);
      return rowIds(res.text);
    },
    async allIds(query) {
      const out: number[] = [];
      let previous = '';
      for (let page = 1; page <= 60; page++) {
        const ids = await seeded.pageIds(`/contacts?${query}${query ? '&' : ''}page=${page}`);
        if (ids.join(',') === previous) break;
        out.push(...ids);
        previous = ids.join(',');
        if (ids.length < 20) break;
      }
      return out;
    },
  };
  t.before(async () => {
    app = await startCrudApp(dialect);
    client = new HttpClient(app.url);
    if (beforeSeed) await beforeSeed(seeded);
    await withDb(app, async (db) => {
      for (const [id, nom] of VILLES) await db.execute('INSERT INTO villes (Id, Nom) VALUES (?, ?)', [id, nom]);
    });
    await insertContacts(app, seedContacts());
  });
  t.after(async () => {
    if (app) await app.stop();
  });
  return seeded;
}

export const sorted = (ids: number[]): number[] => [...ids].sort((a, b) => a - b);
