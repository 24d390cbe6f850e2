/**
 * What a starter application is (docs/decisions.md#starters; docs/starters.md): an id, aliases, a description, and the
 * pieces it is made of. Each piece is a generator of the framework (make:entity's JSON, make:relation, make:crud,
 * auth:init, the account pages, the MFA routes); cli/starters/plan.ts turns the pieces into files with the real
 * emitters, and one writer writes them all or nothing.
 */
import type { EntityExtras, EntityFieldAnswer, RelationDefinition } from '../definitions.js';

export interface StarterOptions {
  /** `--public`: the CRUD routes need no login (starters with CRUD pages only). */
  readonly isPublic: boolean;
}

/** One step of a starter, done with the framework's generator of the same name. */
export type StarterPiece =
  /**
   * The canonical JSON that `fw make:entity` writes, then the entity's generated files (`fw sync:entity`); `extras`
   * gives its description and route plural (`observations` rather than the derived `observation_cours`).
   */
  | { readonly kind: 'entity'; readonly name: string; readonly table: string; readonly fields: readonly EntityFieldAnswer[]; readonly extras?: EntityExtras }
  /** A relation of `mvc/entities/relations.json` (`fw make:relation`), then `fw sync:relations`. */
  | { readonly kind: 'relation'; readonly relation: RelationDefinition }
  /** The CRUD pages and routes of an entity (`fw make:crud`). */
  | { readonly kind: 'crud'; readonly entity: string }
  /** The auth SQL files and `registerAuthRoutes(router)` (`fw auth:init`). */
  | { readonly kind: 'auth' }
  /**
   * The dashboard (`GET /dashboard`) and the profile (`GET /profile`, `POST /profile/password`). `dashboard` says
   * which dashboard: the signed-in user's (`account`, the default) or the behaviour record's (`suivi`: counts, latest
   * observations, flags per pupil, read from the starter's entities Eleve, Cours and ObservationCours). Without it,
   * the project's pages decide: a project that has the behaviour record keeps its dashboard (cli/starters/account.ts).
   */
  | { readonly kind: 'account'; readonly dashboard?: AccountDashboard }
  /** `registerMfaRoutes(router)`, the second factor's card on the account pages, `mfa` in fw_modules.json. */
  | { readonly kind: 'mfa' };

/** Which dashboard the `account` piece writes. */
export type AccountDashboard = 'account' | 'suivi';

export interface Starter {
  /** The number of docs/decisions.md#starters: `1`, `2`, `3`, `4`, `6`. */
  readonly id: string;
  /** The short name first (`contacts`), then the long one (`contact-simple`). */
  readonly aliases: readonly string[];
  /** One line for `fw starter:list`. */
  readonly description: string;
  /** Whether `--public` makes sense (a starter about login refuses it). */
  readonly acceptsPublic: boolean;
  /** Why `--public` is refused, after « : » (default: the starter is about the login). */
  readonly privateReason?: string;
  /** The page to open once it runs (`/contacts`). */
  readonly entryPath: string;
  readonly pieces: (options: StarterOptions) => readonly StarterPiece[];
}

/** The starter's name in messages and commands: its first alias. */
export function starterName(starter: Starter): string {
  return starter.aliases[0]!;
}

/** The pieces of `fw auth:init` when the CRUD routes are protected: without them, nobody could sign in. */
export function loginPieces(options: StarterOptions): StarterPiece[] {
  return options.isPublic ? [] : [{ kind: 'auth' }];
}
