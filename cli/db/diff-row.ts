/** One row of `migration:diff` (diff.ts for the columns, diff-keys.ts for the indexes and foreign keys). */
import type { ChangeStatus, DiffChange } from '../../emitters/migration.js';

export type DiffStatus = 'OK' | ChangeStatus;

export interface DiffRow extends Omit<DiffChange, 'status'> {
  readonly status: DiffStatus;
  readonly detail: string;
}
