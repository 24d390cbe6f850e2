/**
 * The reset message's templates `fw auth:init --password-reset` writes (docs/auth.md "Password reset"): the
 * framework's own, read here from runtime/views/mail/ and handed to the emitter, which never reads the disk
 * (docs/architecture.md "What may import what").
 */
import fs from 'node:fs';
import path from 'node:path';
import { PASSWORD_RESET_MAIL_FILES, passwordResetMailFiles } from '../../emitters/auth/password-reset-files.js';
import type { PlannedFile } from '../../emitters/planned-file.js';
import { FRAMEWORK_VIEWS } from '../../runtime/paths.js';

/** The three templates as planned files, with the framework's text. */
export function passwordResetMailPlan(): PlannedFile[] {
  const templates = Object.fromEntries(PASSWORD_RESET_MAIL_FILES.map((name) => [name, fs.readFileSync(path.join(FRAMEWORK_VIEWS, 'mail', name), 'utf8')]));
  return passwordResetMailFiles(templates);
}
