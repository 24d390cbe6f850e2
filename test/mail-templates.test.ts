/**
 * Mail templates and the development transports of fw-mvc/mail: `renderMail` reads `mvc/views/mail/<name>_*`
 * through the application's nunjucks (HTML autoescaped, subject and text not, `trans` with the project's
 * catalogue), refuses a missing part or a bad name; the console transport prints the message in development and
 * only its envelope in production; the file transport writes an `.eml` that mailparser reads back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configure, resetConfig } from '../runtime/index.js';
import { MailTemplateError, consoleTransport, prepareMail, renderMail, sendMailNow, transportFromConfig } from '../runtime/mail/index.js';
import { makeProject, type TempProject } from './helpers/project.js';

const test = suite('mail: templates and transports');
let project: TempProject;

test.before.each(() => {
  project = makeProject({
    'mvc/views/mail/welcome_subject.txt': '{{ trans("mail.welcome", { name: name }) }} & co\n',
    'mvc/views/mail/welcome_text.txt': 'Bonjour {{ name }} <{{ email }}>,\nvotre lien : {{ link }}\n',
    'mvc/views/mail/welcome_html.html': '<p>Bonjour {{ name }}</p><a href="{{ link }}">lien</a>',
    'mvc/views/mail/plain_subject.txt': 'Sans HTML',
    'mvc/views/mail/plain_text.txt': 'Texte seul.',
    'mvc/views/mail/broken_subject.txt': 'Sujet',
    'mvc/views/mail/evil_subject.txt': 'Ligne 1\n{{ extra }}\nLigne 3',
    'mvc/views/mail/evil_text.txt': 't',
    'translations/fr.json': JSON.stringify({ mail: { welcome: 'Bienvenue {name}' } }),
  });
  resetConfig();
  configure({ project_root: project.root, mail_from: 'App <app@example.test>', mail_dir: 'storage/mail' });
});

test.after.each(() => {
  resetConfig();
  project.cleanup();
});

const context = { name: 'Zoé <b>', email: 'zoe@example.test', link: 'https://example.test/r?a=1&b=2' };

test('renderMail: subject and text unescaped, HTML autoescaped, trans() with the project catalogue', () => {
  const rendered = renderMail('welcome', context);
  assert.is(rendered.subject, 'Bienvenue Zoé <b> & co');
  assert.is(rendered.text, 'Bonjour Zoé <b> <zoe@example.test>,\nvotre lien : https://example.test/r?a=1&b=2\n');
  assert.is(rendered.html, '<p>Bonjour Zoé &lt;b&gt;</p><a href="https://example.test/r?a=1&amp;b=2">lien</a>');
  const plain = renderMail('plain');
  assert.equal(plain, { subject: 'Sans HTML', text: 'Texte seul.' });
});

test('renderMail: a missing part, a bad name or a multi-line subject is refused', () => {
  assert.throws(
    () => renderMail('broken'),
    (error: unknown) => error instanceof MailTemplateError && /broken_text\.txt/.test((error as Error).message),
  );
  assert.throws(
    () => renderMail('absent'),
    (error: unknown) => error instanceof MailTemplateError && /absent_subject\.txt/.test((error as Error).message),
  );
  for (const name of ['../secret', 'a/../../b', '', 'with space', '/abs']) {
    assert.throws(
      () => renderMail(name),
      (error: unknown) => error instanceof MailTemplateError,
      name,
    );
  }
  assert.throws(() => renderMail('evil', { extra: 'Bcc: x@example.test' }), /retour à la ligne/);
});

test('sendMail({ template }): the type defaults to the template name', () => {
  const prepared = prepareMail({ template: 'welcome', context, to: 'zoe@example.test' });
  assert.is(prepared.type, 'welcome');
  assert.is(prepared.message.subject, 'Bienvenue Zoé <b> & co');
  assert.is(prepared.message.from.name, 'App');
});

test('the console transport prints the message in development, only its envelope in production', async () => {
  let printed = '';
  const transport = consoleTransport((text) => (printed += text));
  const result = await sendMailNow({ template: 'welcome', context, to: 'zoe@example.test' }, { transport });
  assert.is(result.response, 'console');
  assert.match(printed, /^Subject: Bienvenue Zo/m);
  assert.match(printed, /votre lien/);
  printed = '';
  configure({ app_env: 'prod' });
  await sendMailNow({ template: 'welcome', context, to: 'zoe@example.test' }, { transport });
  assert.match(printed, /To: zoe@example\.test/);
  assert.not.match(printed, /votre lien|https:\/\/example/);
});

test('the file transport (mail_transport = file) writes one .eml under mail_dir', async () => {
  configure({ mail_transport: 'file' });
  const transport = transportFromConfig();
  assert.is(transport.name, 'file');
  await sendMailNow({ template: 'welcome', context, to: { name: 'Zoé', address: 'zoe@example.test' } }, { transport });
  const dir = path.join(project.root, 'storage', 'mail');
  const files = fs.readdirSync(dir);
  assert.is(files.length, 1);
  assert.match(files[0]!, /^\d{8}T\d{6}Z-[0-9a-f]{8}\.eml$/);
  assert.is(fs.statSync(path.join(dir, files[0]!)).mode & 0o777, 0o600);
  const parsed = await simpleParser(fs.readFileSync(path.join(dir, files[0]!)));
  assert.is(parsed.subject, 'Bienvenue Zoé <b> & co');
  assert.is(parsed.text, 'Bonjour Zoé <b> <zoe@example.test>,\nvotre lien : https://example.test/r?a=1&b=2\n');
  assert.is(parsed.html, '<p>Bonjour Zoé &lt;b&gt;</p><a href="https://example.test/r?a=1&amp;b=2">lien</a>');
});

test.run();
