/**
 * The emitters: pure functions IR -> file contents (docs/architecture.md "The stages"). They never read or write
 * the disk; `cli/writer.ts` decides each file's fate.
 *
 * | emitter | file |
 * |---|---|
 * | emitTableSql(model, entity, dialect), for each of DIALECT_NAMES | `mvc/entities/<snake>/<snake>.sql` / `<snake>.sqlite.sql` (the dialect's `fileSuffix`) |
 * | emitRelationsSql(model, dialect), for each of DIALECT_NAMES | `mvc/entities/relations.sql` / `relations.sqlite.sql` |
 * | emitBaseClass(model, entity) | `mvc/entities/<snake>/<snake>_base.ts` |
 * | emitEntityClass(model, entity) | `mvc/entities/<snake>/<snake>.ts` (manual) |
 * | emitEntityIndex(model, entity) | `mvc/entities/<snake>/index.ts` (manual) |
 */
export { emitTableSql } from './sql-table.js';
export { emitRelationsSql } from './sql-relations.js';
export { emitBaseClass, VALIDATION_MESSAGES } from './base-class.js';
export { emitEntityClass, emitEntityIndex } from './entity-manual.js';
export { entityFiles, relationFiles, modelFiles } from './entity-files.js';
export { GENERATED_MARKER, hasGeneratedMarker, sqlMarkerLine, tsMarkerLine, syncEntityCommand, SYNC_RELATIONS_COMMAND } from './marker.js';
export { ENTITIES_DIR, type FileKind, type PlannedFile } from './planned-file.js';
export { EmitError } from './ir-lookup.js';
export { emitEmptyMigration, emitCreateMigration, emitDiffMigration, type DiffChange } from './migration.js';
export { emitFrameworkMigration, describeFrameworkChange, type FrameworkChange, type FrameworkTableDiff } from './framework-migration.js';
