/**
 * The message templates `fw auth:init --password-reset` gives the project (docs/auth.md "Password reset"):
 * `mvc/views/mail/password_reset_subject.txt`, `_text.txt` and `_html.html`, copies of the framework's own
 * (runtime/views/mail/, which the message falls back to when the project has none). Written once, when absent, and
 * never touched again: they are the project's to edit. Like every emitter, this one never reads the disk
 * (docs/architecture.md "What may import what"): the command reads the framework's templates and passes their text.
 */
import type { PlannedFile } from '../planned-file.js';

/** The project's folder of mail templates. */
export const MAIL_VIEWS_DIR = 'mvc/views/mail';

/** The three parts of the reset message. */
export const PASSWORD_RESET_MAIL_FILES: readonly string[] = ['password_reset_subject.txt', 'password_reset_text.txt', 'password_reset_html.html'];

/** The templates, as `manual` files (created when absent), from the text of each (by file name). */
export function passwordResetMailFiles(templates: Readonly<Record<string, string>>): PlannedFile[] {
  return PASSWORD_RESET_MAIL_FILES.map((name) => {
    const content = templates[name];
    if (content === undefined) throw new Error(`passwordResetMailFiles : texte de ${name} manquant`);
    return { path: `${MAIL_VIEWS_DIR}/${name}`, content, kind: 'manual' as const };
  });
}
