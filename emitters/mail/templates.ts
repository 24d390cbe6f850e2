/**
 * The message templates `fw mail:init` writes into a project (docs/mail.md "Templates"): `test`, the message
 * `fw mail:test` sends, as `mvc/views/mail/test_subject.txt`, `test_text.txt` and `test_html.html`. Manual files:
 * created when absent, never rewritten (the project owns and translates them). The context `fw mail:test` gives
 * them: `app_name` (APP_NAME), `sent_at` (UTC, `YYYY-MM-DD HH:MM:SS`) and `to` (the recipient's address).
 */
import type { PlannedFile } from '../planned-file.js';

/** Folder of the project's message templates, relative to the project root. */
export const MAIL_VIEWS_DIR = 'mvc/views/mail';

/** The template `fw mail:test` sends. */
export const TEST_TEMPLATE = 'test';

const SUBJECT = "Message de test de {{ app_name | default('l’application') }}\n";

const TEXT = `Bonjour,

Ce message de test a été envoyé par « fw mail:test » pour {{ app_name | default('l’application') }}
à {{ to }}, le {{ sent_at }} (UTC).

Si vous le lisez, l'envoi des messages fonctionne : le serveur SMTP l'a accepté et remis.
`;

const HTML = `<!DOCTYPE html>
<html lang="fr">
  <head>
    <meta charset="utf-8">
    <title>Message de test</title>
  </head>
  <body style="font-family: sans-serif; line-height: 1.5; color: #1f2937;">
    <p>Bonjour,</p>
    <p>
      Ce message de test a été envoyé par <code>fw mail:test</code> pour
      <strong>{{ app_name | default('l’application') }}</strong> à {{ to }}, le {{ sent_at }} (UTC).
    </p>
    <p>Si vous le lisez, l'envoi des messages fonctionne : le serveur SMTP l'a accepté et remis.</p>
  </body>
</html>
`;

/** The three files of the `test` template. */
export function mailTemplateFiles(): PlannedFile[] {
  return [
    { path: `${MAIL_VIEWS_DIR}/${TEST_TEMPLATE}_subject.txt`, content: SUBJECT, kind: 'manual' },
    { path: `${MAIL_VIEWS_DIR}/${TEST_TEMPLATE}_text.txt`, content: TEXT, kind: 'manual' },
    { path: `${MAIL_VIEWS_DIR}/${TEST_TEMPLATE}_html.html`, content: HTML, kind: 'manual' },
  ];
}
