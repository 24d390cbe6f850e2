/**
 * What each pending migration file runs on the current dialect, decided before anything runs (docs/decisions.md#migrations), so that a malformed file stops `migration:apply` before the first migration, not in the middle.
 */
import { spellingOf, type DialectName } from '../../runtime/db/dialect.js';
import { CliError } from '../errors.js';
import type { MigrationFile } from './migrations.js';
import { dialectSection, splitSqlStatements, type SqlStatement } from './sql-split.js';

/** Transaction control that would break the transaction fw runs each SQLite migration in. */
const TRANSACTION_CONTROL = /^(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/**
 * Cuts every pending file into statements before anything runs, so that a malformed file (DELIMITER, unknown
 * dialect marker, transaction control on SQLite, no statement at all for this dialect) stops the run before the
 * first migration, not in the middle.
 */
export function plan(files: readonly MigrationFile[], dialect: DialectName): Array<{ file: MigrationFile; statements: SqlStatement[] }> {
  return files.map((file) => {
    const statements = splitSqlStatements(dialectSection(file.text, dialect, file.filename), dialect, file.filename);
    const spelling = spellingOf(dialect);
    const control = spelling.transactionalDdl ? statements.find((statement) => TRANSACTION_CONTROL.test(statement.text)) : undefined;
    if (control) {
      throw new CliError(
        `${file.filename}, ligne ${control.line} : « ${control.text.split(/\s+/)[0]} » — fw exécute déjà chaque migration ${spelling.product} dans une transaction ; aucune migration n'a été appliquée.`,
        'retirez BEGIN / COMMIT / ROLLBACK du fichier, puis relancez « fw migration:apply ».',
      );
    }
    // Recorded as APPLIED, a file that ran nothing here would hide a change this database never received.
    if (statements.length === 0) {
      throw new CliError(
        `la migration « ${file.filename} » ne contient aucune instruction pour ${dialect} (sa section « -- fw:dialect ${dialect} » est vide ou absente, ou ne contient que des commentaires) ; aucune migration n'a été appliquée ni enregistrée.`,
        `écrivez ses instructions ${dialect} sous « -- fw:dialect ${dialect} » (le fichier est encore PENDING, il peut être modifié) ; si ce dialecte n'a vraiment rien à faire, écrivez-y « SELECT 1; » pour le dire.`,
      );
    }
    return { file, statements };
  });
}
