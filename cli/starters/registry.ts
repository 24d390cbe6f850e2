/** The starters of this version (docs/decisions.md#starters), found by id or alias, in the order of their ids. */
import { authStarter } from './auth.js';
import { carnetStarter } from './carnet.js';
import { contactsStarter } from './contacts.js';
import { mfaStarter } from './mfa.js';
import { starterName, type Starter } from './starter.js';
import { suiviStarter } from './suivi.js';

export const STARTERS: readonly Starter[] = [contactsStarter, authStarter, carnetStarter, suiviStarter, mfaStarter];

/** The starter whose id or alias is `key` (case-insensitive), or undefined. */
export function findStarter(key: string): Starter | undefined {
  const wanted = key.trim().toLowerCase();
  return STARTERS.find((starter) => starter.id === wanted || starter.aliases.includes(wanted));
}

/** `1 (contacts, contact-simple), 2 (auth, …)…` for messages. */
export function starterChoices(): string {
  return STARTERS.map((starter) => `${starter.id} (${starter.aliases.join(', ')})`).join(', ');
}

/** The table of `fw starter:list`: `ID  ALIAS  DESCRIPTION`, columns padded, no trailing spaces. */
export function starterTable(): string {
  const rows = [['ID', 'ALIAS', 'DESCRIPTION'], ...STARTERS.map((s) => [s.id, s.aliases.join(', '), s.description])];
  const widths = [0, 1].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => `${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}`.trimEnd()).join('\n') + '\n';
}

export { starterName };
