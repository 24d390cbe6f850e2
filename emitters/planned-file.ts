/** What an emitter hands to the writer: a path, the whole content, and whether it may be regenerated. */

/**
 * `regenerable`: rewritten by every generation while it keeps its marker line (base class, SQL).
 * `manual`: created once when absent, never touched again (the business class, `index.ts`).
 * `canonical`: a definition file (`relations.json`) that an assistant command rebuilt from its current
 * content: written whenever it differs, no marker needed.
 */
export type FileKind = 'regenerable' | 'manual' | 'canonical';

export interface PlannedFile {
  /** Posix path relative to the project root, e.g. `mvc/entities/contact/contact.sql`. */
  readonly path: string;
  readonly content: string;
  readonly kind: FileKind;
  /** The mode of a created file (0o600 for `env/prod`, which holds secrets); the default (0o666 less the umask) otherwise. */
  readonly mode?: number;
}

/**
 * A file copied byte for byte, never decoded or re-encoded: a module's image or font (`fw module:files`, always
 * `manual`: created when absent, never rewritten when it differs), a static file published by `fw sync:landing`.
 */
export interface CopiedFile {
  readonly path: string;
  readonly content: Uint8Array;
  readonly kind: FileKind;
}

/** Folder of entity definitions and their generated files (docs/entities.md "Generated files"). */
export const ENTITIES_DIR = 'mvc/entities';
