// The rule of definition files (docs/entities.md "Limits and reserved names"): what `fw check:model` accepts
// type-checks, applies on SQLite and MariaDB and serves every page; what it refuses is refused with `Erreur :`, the
// file and the JSON pointer, and nothing written. One row per case (test/helpers/definitions-chain.ts); the
// accepted rows share one project, so that tsc runs once.
import { suite } from 'uvu';
import { buildAccepted, cleanupChain, entityFiles, runAcceptedOn, runRefusedCase, type AcceptedProject, type ChainCase } from './helpers/definitions-chain.js';

const ID = { name: 'id', sql_type: 'INT', primary_key: true, auto_increment: true };

/** An entity file with an id and the given fields. */
function entity(name: string, fields: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}): { entity: string } & Record<string, unknown> {
  return { format_version: 1, entity: name, table: `${name.toLowerCase()}_t`, fields: [ID, ...fields], ...extra };
}

export const CASES: ChainCase[] = [
  {
    name: 'an ordinary entity passes the whole chain',
    files: entityFiles(
      entity('Carnet', [
        { name: 'titre', sql_type: 'VARCHAR(100)' },
        { name: 'actif', sql_type: 'BOOLEAN' },
      ]),
    ),
    expect: 'passes',
  },
  {
    name: 'a reserved SQL word as an entity name is refused',
    files: entityFiles(entity('Order', [{ name: 'titre', sql_type: 'VARCHAR(100)' }])),
    expect: { file: 'mvc/entities/order/order.json', pointer: '#/entity', message: 'mot réservé SQL' },
  },
];

const t = suite('generator-definitions-chain');
let accepted: AcceptedProject;

t.after(async () => {
  await cleanupChain();
});

for (const row of CASES.filter((c) => c.expect !== 'passes')) {
  t(`refused: ${row.name}`, () => runRefusedCase(row));
}

const passing = CASES.filter((c) => c.expect === 'passes');
t(`accepted (${passing.length} cases in one project): check:model, build:model, make:crud, sync:relations, tsc`, () => {
  accepted = buildAccepted(passing);
});
t('accepted: db:apply on SQLite, every page served and posted', async () => {
  await runAcceptedOn(accepted, 'sqlite');
});
t('accepted: db:apply on MariaDB, every page served and posted', async () => {
  await runAcceptedOn(accepted, 'mariadb');
});

t.run();
