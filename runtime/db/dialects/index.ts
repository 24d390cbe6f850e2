/**
 * Every dialect's pieces that run: its driver, its catalogue, its queries (docs/architecture.md "Dialects"). Each
 * folder `<name>/` gives the same files: `spelling.ts` (pure, joined in ../dialect.ts), `driver.ts`, `catalogue.ts`,
 * `queries.ts`; what only one dialect needs stays in its folder (MariaDB's pool and binder, SQLite's collation).
 */
import type { Catalogue } from '../catalogue.js';
import type { DialectDriver, DialectName, DialectQueries } from '../dialect.js';
import { mariadbCatalogue } from './mariadb/catalogue.js';
import { mariadbDriver } from './mariadb/driver.js';
import { mariadbQueries } from './mariadb/queries.js';
import { sqliteCatalogue } from './sqlite/catalogue.js';
import { sqliteDriver } from './sqlite/driver.js';
import { sqliteQueries } from './sqlite/queries.js';

interface DialectPieces {
  // The options differ per driver: DialectOptions below gives each its own.
  readonly driver: DialectDriver<object>;
  readonly catalogue: Catalogue;
  readonly queries: DialectQueries;
}

/** The registry: a new dialect adds its line here, its name and spelling in ../dialect.ts. */
const DIALECTS = {
  mariadb: { driver: mariadbDriver, catalogue: mariadbCatalogue, queries: mariadbQueries },
  sqlite: { driver: sqliteDriver, catalogue: sqliteCatalogue, queries: sqliteQueries },
} as const satisfies Readonly<Record<DialectName, DialectPieces>>;

type OptionsOf<Driver> = Driver extends DialectDriver<infer Options> ? Options : never;

/** The options of each dialect's driver (`SqliteOptions`, `MariaDbOptions`). */
export type DialectOptions = { readonly [Name in DialectName]: OptionsOf<(typeof DIALECTS)[Name]['driver']> };

/** The driver of a dialect. */
export function driverOf<Name extends DialectName>(dialect: Name): DialectDriver<DialectOptions[Name]> {
  return DIALECTS[dialect].driver as DialectDriver<DialectOptions[Name]>;
}

/** The catalogue queries of a dialect (cli/db/schema.ts reads the real schema through them). */
export function catalogueOf(dialect: DialectName): Catalogue {
  return DIALECTS[dialect].catalogue;
}

/** How the runtime's own queries are written in a dialect. */
export function queriesOf(dialect: DialectName): DialectQueries {
  return DIALECTS[dialect].queries;
}
