/**
 * Who may read a private file at `/media` (docs/uploads.md "Who may read a private file"): a file that a row of the
 * `media` table links to a record follows that record's read rule, the one its detail page applies. The pages of
 * `fw make:crud --media` register the rule of their entity (the role block's `show`, and the record must exist); an
 * application adds its own (an ownership rule, an entity without generated pages) with `registerMediaReadRule`.
 * Every rule registered for the entity must allow. The Application asks on every request for a private file, after
 * the login check and before any 304, 206 or 200.
 */
import { placeholders } from '../crud/ids.js';
import { getDatabase, type Queryable } from '../db/database.js';
import type { Request } from '../http/request.js';
import { userHasRole } from '../session/session.js';
import { userCan } from '../templates/nunjucks.js';
import { VARIANT_NAMES } from '../uploads/variants.js';

/** May the signed-in user of `request` read the files of record `entityId` (its id as the `media` table stores it, text)? */
export type MediaReadRule = (request: Request, entityId: string) => boolean | Promise<boolean>;

/** Rules by entity name, then by rule name. */
const rules = new Map<string, Map<string, MediaReadRule>>();

/**
 * Adds (or, under the same `name`, replaces) a read rule for the files of an entity's records. Every rule of the
 * entity must allow; a rule that throws refuses the request (500, logged). Returns a function that removes it.
 */
export function registerMediaReadRule(entityName: string, rule: MediaReadRule, name = 'default'): () => void {
  if (typeof entityName !== 'string' || entityName.trim() === '')
    throw new TypeError(`registerMediaReadRule : nom d’entité invalide (${JSON.stringify(entityName)}).`);
  if (typeof rule !== 'function')
    throw new TypeError(`registerMediaReadRule(« ${entityName} ») : la règle doit être une fonction (request, entityId) => boolean.`);
  let byName = rules.get(entityName);
  if (!byName) rules.set(entityName, (byName = new Map<string, MediaReadRule>()));
  byName.set(name, rule);
  return () => {
    if (byName.get(name) === rule) byName.delete(name);
    if (byName.size === 0 && rules.get(entityName) === byName) rules.delete(entityName);
  };
}

/** The media path whose row owns this file: a variant (`images/medium/a.jpg`) belongs to its image (`images/a.jpg`). */
function ownerPaths(mediaPath: string): string[] {
  const segments = mediaPath.split('/');
  if (segments.length === 3 && (VARIANT_NAMES as readonly string[]).includes(segments[1]!)) return [mediaPath, `${segments[0]}/${segments[2]}`];
  return [mediaPath];
}

/**
 * Whether the signed-in user of `request` may read the private file at `mediaPath` (normalized, as the route
 * decoded it): true when no media row links it to a record, or its record's entity has no rule (any signed-in user,
 * docs/uploads.md); otherwise every rule of that entity must allow.
 */
export async function mayReadMedia(request: Request, mediaPath: string, db?: Queryable): Promise<boolean> {
  if (rules.size === 0) return true;
  const paths = ownerPaths(mediaPath);
  const owners = await (db ?? getDatabase()).fetchAll<{ entity_name: string; entity_id: unknown }>(
    `SELECT entity_name, entity_id FROM media WHERE path IN (${placeholders(paths.length)})`,
    paths,
  );
  for (const owner of owners) {
    const byName = rules.get(owner.entity_name);
    if (!byName) continue;
    for (const rule of [...byName.values()]) {
      if (!(await rule(request, String(owner.entity_id)))) return false;
    }
  }
  return true;
}

/** The record a file belongs to: the entity's table and key column (its detail page answers 404 when no row has that key). */
export interface RecordTable {
  readonly table: string;
  readonly keyColumn: string;
}

/**
 * What the detail page of a generated CRUD entity checks, for `recordReadRule`: its own check of the role block
 * (`mayShow`, the `allowed(request, 'show')` of the generated `<snake>_crud.ts`), or, as `<snake>_media.ts` files
 * generated before fw-mvc/media held the media pages write it, the permission and the roles of the block's `show`.
 * Either way the record must exist.
 */
export type RecordReadAccess = RecordTable &
  (
    | {
        /** Whether the signed-in user may open a detail page of the entity (the page's own role check). */
        readonly mayShow: (request: Request) => boolean | Promise<boolean>;
      }
    | {
        /** The permission code of the page (`dossier.show`): a user holding it, or the `admin` role, may read. */
        readonly permission: string;
        /** The roles of the role block's `show` entry; null when the block does not name `show` (every signed-in user). */
        readonly roles: readonly string[] | null;
      }
  );

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The check of a role block's `show` entry as older generated media modules pass it: the permission or one of the roles. */
function roleBlockCheck(permission: string, roles: readonly string[] | null): (request: Request) => boolean {
  if (roles === null) return () => true;
  const list = [...roles];
  return (request) => userCan(request, permission) || list.some((role) => userHasRole(request, role));
}

/**
 * The read rule of a record's detail page as `fw make:crud` writes it: the page's role check, and a record with
 * that key. Registered by `MediaPages` (pages.ts) for each entity's generated `<snake>_media.ts`.
 */
export function recordReadRule(access: RecordReadAccess): MediaReadRule {
  for (const name of [access.table, access.keyColumn]) {
    if (!IDENTIFIER.test(name)) throw new TypeError(`recordReadRule : identifiant SQL invalide (${JSON.stringify(name)}).`);
  }
  const mayShow = 'mayShow' in access ? access.mayShow : roleBlockCheck(access.permission, access.roles);
  if (typeof mayShow !== 'function') throw new TypeError('recordReadRule : mayShow doit être une fonction (request) => boolean.');
  const sql = `SELECT 1 AS found FROM ${access.table} WHERE ${access.keyColumn} = ?`;
  return async (request, entityId) => {
    if (!(await mayShow(request))) return false;
    return (await getDatabase().fetchOne(sql, [entityId])) !== null;
  };
}
