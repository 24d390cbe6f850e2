// The project of the public page generator tests: an entity Annonce with a unique e-mail, a decimal, dates, a boolean,
// a long text, a raw `_id` field, NOT NULL fields the public form leaves out (password_hash, is_active, created_at)
// and the four kinds of media; Cle, whose only text is a password (its detail page is headed by its key); Compte, with
// secrets and account flags the public pages leave out; every public
// generator run through the real CLI (docs/generators.md).
import { ID, ok, writeEntity } from './crud-cli-project.js';
import type { CliProject } from './cli.js';

export const ANNONCE = {
  format_version: 1,
  entity: 'Annonce',
  table: 'annonces',
  fields: [
    ID,
    { name: 'titre', sql_type: 'VARCHAR(120)', constraints: { not_empty: true } },
    { name: 'email', sql_type: 'VARCHAR(190)', unique: true },
    { name: 'telephone', sql_type: 'VARCHAR(30)', nullable: true },
    { name: 'site_web', sql_type: 'VARCHAR(200)', nullable: true },
    { name: 'prix', sql_type: 'DECIMAL(8,2)', nullable: true },
    { name: 'surface', sql_type: 'FLOAT', nullable: true },
    { name: 'pieces', sql_type: 'INT', nullable: true },
    { name: 'disponible', sql_type: 'BOOLEAN' },
    { name: 'debut', sql_type: 'DATE', nullable: true },
    { name: 'visite', sql_type: 'DATETIME', nullable: true },
    { name: 'description', sql_type: 'TEXT', nullable: true },
    { name: 'categorie_id', sql_type: 'INT', nullable: true },
    { name: 'password_hash', sql_type: 'VARCHAR(255)' },
    { name: 'is_active', sql_type: 'BOOLEAN' },
    { name: 'created_at', sql_type: 'DATETIME' },
  ],
  media: [
    { name: 'photo', field: 'image', role: 'cover', variants: true },
    { name: 'galerie', field: 'image', role: 'gallery', multiple: true },
    { name: 'plan', field: 'file' },
    { name: 'annexes', field: 'file', multiple: true },
  ],
};

/** Nothing to name a record with but a secret: the public detail shows `#<id>` (docs/generators.md). */
export const CLE = {
  format_version: 1,
  entity: 'Cle',
  table: 'cles',
  fields: [ID, { name: 'password', sql_type: 'VARCHAR(64)' }, { name: 'actif', sql_type: 'BOOLEAN' }],
};

/** Secrets and account flags under other names than `password*`, `token*`, `secret*`: never shown, never entered (docs/generators.md). */
export const COMPTE = {
  format_version: 1,
  entity: 'Compte',
  table: 'comptes',
  fields: [
    ID,
    { name: 'pseudo', sql_type: 'VARCHAR(40)' },
    { name: 'api_token', sql_type: 'VARCHAR(64)', nullable: true },
    { name: 'mfa_secret', sql_type: 'VARCHAR(64)', nullable: true },
    { name: 'reset_password_token', sql_type: 'VARCHAR(64)', nullable: true },
    { name: 'password_salt', sql_type: 'VARCHAR(32)', nullable: true },
    { name: 'api_key', sql_type: 'VARCHAR(64)', nullable: true },
    { name: 'is_admin', sql_type: 'BOOLEAN' },
    { name: 'is_active', sql_type: 'BOOLEAN' },
  ],
};

/** The commands of the five generators, in the order of the walkthrough of docs/generators.md. */
export const PUBLIC_COMMANDS: readonly string[][] = [
  ['make:public-page', 'landing'],
  ['make:public-page', 'a-propos'],
  ['make:public-contact'],
  ['make:public-list', 'Annonce'],
  ['make:public-show', 'Annonce'],
  ['make:public-form', 'Annonce'],
  ['make:public-list', 'Cle'],
  ['make:public-show', 'Cle'],
  ['make:public-list', 'Compte'],
  ['make:public-show', 'Compte'],
  ['make:public-form', 'Compte'],
];

/** Writes Annonce, Cle and Compte and runs every public generator (each must succeed). */
export function generatePublicSite(project: CliProject): void {
  writeEntity(project, ANNONCE);
  writeEntity(project, CLE);
  writeEntity(project, COMPTE);
  for (const args of PUBLIC_COMMANDS) ok(project, args);
}
