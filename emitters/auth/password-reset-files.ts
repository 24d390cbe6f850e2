/**
 * The message templates `fw auth:init --password-reset` gives the project (docs/auth.md "Password reset"):
 * `mvc/views/mail/password_reset_subject.txt`, `_text.txt` and `_html.html`, copies of the framework's own
 * (runtime/views/mail/, which the message falls back to when the project has none). Written once, when absent, and
 * never touched again: they are the project's to edit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FRAMEWORK_VIEWS } from '../../runtime/paths.js';
import type { PlannedFile } from '../planned-file.js';

/** The project's folder of mail templates. */
export const MAIL_VIEWS_DIR = 'mvc/views/mail';

/** The three parts of the reset message. */
export const PASSWORD_RESET_MAIL_FILES: readonly string[] = ['password_reset_subject.txt', 'password_reset_text.txt', 'password_reset_html.html'];

/** The templates, as `manual` files (created when absent). */
export function passwordResetMailFiles(): PlannedFile[] {
  return PASSWORD_RESET_MAIL_FILES.map((name) => ({
    path: `${MAIL_VIEWS_DIR}/${name}`,
    content: fs.readFileSync(path.join(FRAMEWORK_VIEWS, 'mail', name), 'utf8'),
    kind: 'manual' as const,
  }));
}
