/**
 * `fw mail:init`, `mail:render`, `mail:test` and `mail:logs`, and `fw db:apply` with the mail_log table, as real
 * processes in a project made by `fw new`, against a real SMTP server on 127.0.0.1 (STARTTLS and AUTH), on SQLite
 * and MariaDB: the files written once and never overwritten, the table created, the message received exactly as
 * the template renders it, the server's answer printed, a refused password, the log listed without any body, and
 * bad input (unknown template, bad JSON context, --limit out of range, an address with CR/LF).
 */
import fs from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mailSqlContent, mailSqlPath } from '../emitters/mail/sql-files.js';
import { mailTemplateFiles } from '../emitters/mail/templates.js';
import { fateLine, lines, newProject, readSchema, type CliProject } from './helpers/cli.js';
import { fwAsync, setMailEnv, trustTestCertificate } from './helpers/mail-cli.js';
import { startSmtp, type SmtpHandle } from './helpers/smtp.js';
import { DIALECTS } from './helpers/dialects.js';

const TEMPLATES = ['mvc/views/mail/test_subject.txt', 'mvc/views/mail/test_text.txt', 'mvc/views/mail/test_html.html'];

for (const dialect of DIALECTS) {
  const t = suite(`fw mail:* (${dialect})`);
  let p: CliProject;
  let server: SmtpHandle;
  const env = trustTestCertificate();
  t.before(async () => {
    p = newProject('Courrier');
    p.useDialect(dialect);
    server = await startSmtp({ tls: 'starttls', auth: { user: 'alice', pass: 's3cret-pw' } });
    setMailEnv(p, {
      MAIL_HOST: '127.0.0.1',
      MAIL_PORT: server.port,
      MAIL_USERNAME: 'alice',
      MAIL_PASSWORD: 's3cret-pw',
      MAIL_FROM: 'Courrier <app@example.test>',
      MAIL_USE_TLS: true,
      MAIL_TIMEOUT: 3,
    });
  });
  t.after(async () => {
    await server?.close();
    await p?.cleanup();
  });

  t('mail:init writes the test template, both SQL files and storage/mail; a second run and an edited template change nothing', () => {
    const dry = p.run(['mail:init', '--dry-run']);
    assert.is(dry.status, 0, dry.stderr);
    assert.not.ok(p.exists('mvc/views/mail') || p.exists('storage/mail'), 'the dry run writes nothing');
    const first = p.run(['mail:init']);
    assert.is(first.status, 0, first.stderr);
    const out = lines(first.stdout);
    for (const file of [...TEMPLATES, mailSqlPath('mariadb'), mailSqlPath('sqlite')])
      assert.ok(out.includes(fateLine('créé', file)), `${file}\n${first.stdout}`);
    assert.ok(out.includes(fateLine('créé', 'storage/mail/')));
    assert.ok(fs.statSync(p.path('storage/mail')).isDirectory());
    for (const d of DIALECTS) assert.is(p.read(mailSqlPath(d)), mailSqlContent(d));
    for (const file of mailTemplateFiles()) assert.is(p.read(file.path), file.content);
    assert.match(p.read(mailSqlPath('sqlite')), /^-- fw-mvc: generated file, do not edit \(regenerate with: fw mail:init\)\n/);
    const edited = p.read(TEMPLATES[0]!).replace('Message de test', 'Essai');
    p.write(TEMPLATES[0]!, edited);
    const second = p.run(['mail:init']);
    assert.is(second.status, 0, second.stderr);
    assert.ok(
      lines(second.stdout).some((line) => line.startsWith(fateLine('ignoré', TEMPLATES[0]!))),
      second.stdout,
    );
    assert.is(p.read(TEMPLATES[0]!), edited, 'a template the user changed is never overwritten');
    p.write(TEMPLATES[0]!, mailTemplateFiles()[0]!.content);
    assert.is(
      lines(p.run(['mail:init']).stdout).at(-1),
      'Rien à faire : le gabarit « test », les fichiers SQL de mail_log et le dossier des messages sont déjà en place.',
    );
  });

  t('db:apply creates mail_log with its indexes; twice is harmless; a missing mail file is refused with nothing applied', async () => {
    if (dialect === 'mariadb') assert.is(p.run(['db:init']).status, 0);
    const dry = p.run(['db:apply', '--dry-run']);
    assert.ok(lines(dry.stdout).includes(`  ${mailSqlPath(dialect)}`), dry.stdout);
    for (let i = 0; i < 2; i++) {
      const apply = p.run(['db:apply']);
      assert.is(apply.status, 0, apply.stdout + apply.stderr);
      assert.match(apply.stdout, new RegExp(`(appliqué|inchangé)\\s+${mailSqlPath(dialect).replace(/\./g, '\\.')}`));
    }
    const schema = await readSchema(p);
    assert.equal(
      schema.tables.mail_log?.map((c) => c.name),
      [
        'id',
        'message_type',
        'to_email',
        'subject',
        'transport',
        'status',
        'error_message',
        'related_entity',
        'related_id',
        'created_at',
        'sent_at',
        'attempts',
        'next_attempt_at',
        'message',
      ],
    );
    const indexes = schema.indexes
      .filter((i) => i.table === 'mail_log')
      .map((i) => i.name)
      .sort();
    assert.equal(indexes, ['ix_mail_log_created_at', 'ix_mail_log_due', 'ix_mail_log_related']);
    const file = mailSqlPath(dialect);
    const text = p.read(file);
    fs.rmSync(p.path(file));
    try {
      const run = p.run(['db:apply']);
      assert.is(run.status, 1);
      assert.is(
        run.stderr,
        `Erreur : fichier SQL de la table mail_log absent ou périmé : ${file} (absent). Rien n'a été appliqué.\nConseil : lancez « fw mail:init » puis relancez « fw db:apply ».\n`,
      );
    } finally {
      p.write(file, text);
    }
  });

  t('mail:test sends the test template over STARTTLS with AUTH and prints the answer; mail:logs lists it', async () => {
    const run = await fwAsync(p.root, ['mail:test', '--to', 'zoe@example.test'], env);
    assert.is(run.status, 0, run.stdout + run.stderr);
    const [message] = await server.waitFor(1);
    assert.ok(message!.secure);
    assert.is(message!.user, 'alice');
    assert.equal(message!.to, ['zoe@example.test']);
    assert.is(message!.parsed.subject, 'Message de test de Courrier');
    assert.match(message!.parsed.text ?? '', /envoyé par « fw mail:test » pour Courrier\nà zoe@example\.test, le \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(UTC\)/);
    assert.match(String(message!.parsed.html), /<strong>Courrier<\/strong> à zoe@example\.test/);
    const out = lines(run.stdout);
    assert.is(out[0], `Message « test » envoyé à zoe@example.test par smtp 127.0.0.1:${server.port} (STARTTLS exigé, AUTH alice).`);
    assert.match(out[1]!, /^Réponse du serveur : 250 /);
    assert.is(out[2], `Message-ID : ${message!.parsed.messageId}`);
    assert.is(out.at(-1), 'Journal : enregistré dans mail_log (« fw mail:logs »).');
    assert.not.match(run.stdout + run.stderr, /s3cret-pw/);
    const logs = p.run(['mail:logs']);
    assert.is(logs.status, 0, logs.stderr);
    assert.match(logs.stdout, /^mail_log \(.+\) : 1 dernière\(s\) ligne\(s\), la plus récente en premier ; dates en UTC\.\n/);
    assert.match(
      logs.stdout,
      /\n {2}n° 1 {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}sent {5}1 essai\(s\) {2}test {2}→ zoe@example\.test {2}« Message de test de Courrier » {2}\(smtp\)\n/,
    );
  });

  t('mail:test with a wrong password: Erreur with the 535, exit 1, the failure logged; mail:logs never shows a body', async () => {
    const good = p.read('env/dev');
    p.write('env/dev', good.replace('MAIL_PASSWORD=s3cret-pw', 'MAIL_PASSWORD=wrong-pw'));
    try {
      const run = await fwAsync(p.root, ['mail:test', '--to', 'zoe@example.test'], env);
      assert.is(run.status, 1);
      assert.is(run.stdout, '');
      assert.match(
        run.stderr,
        /^Erreur : envoi par smtp 127\.0\.0\.1:\d+ \(STARTTLS exigé, AUTH alice\) impossible : EAUTH 535 : .+\nConseil : vérifiez MAIL_USERNAME et MAIL_PASSWORD/,
      );
      assert.not.match(run.stderr, /wrong-pw/);
    } finally {
      p.write('env/dev', good);
    }
    const logs = p.run(['mail:logs', '--limit', '1']);
    assert.is(logs.status, 0, logs.stderr);
    const out = lines(logs.stdout);
    assert.is(out.length, 3, logs.stdout);
    assert.match(out[1]!, /^ {2}n° 2 .* failed {3}1 essai\(s\) {2}test /);
    assert.match(out[2]!, /^ {8}erreur : EAUTH 535 : /);
    const all = p.run(['mail:logs', '--limit', '1000']).stdout;
    assert.not.match(all, /Si vous le lisez|Bonjour|wrong-pw|s3cret/);
    assert.is(server.received.length, 1, 'nothing more arrived');
  });

  t('mail:logs --limit out of range or not a number: Erreur and Conseil, exit 1', () => {
    for (const bad of ['0', '1001', 'abc', '-3', '2.5']) {
      const run = p.run(['mail:logs', '--limit', bad]);
      assert.is(run.status, 1, bad);
      assert.is(run.stdout, '');
      assert.is(
        run.stderr,
        `Erreur : --limit doit être un entier de 1 à 1000 (valeur lue : « ${bad} »).\nConseil : par exemple « fw mail:logs --limit 50 » ; sans --limit : les 20 dernières lignes.\n`,
      );
    }
  });

  t.run();
}

const input = suite('fw mail:render, mail:test and mail:logs: bad input (SQLite)');
let q: CliProject;
let smtp: SmtpHandle;
input.before(async () => {
  q = newProject('Gabarits');
  q.useSqlite();
  smtp = await startSmtp({ tls: 'plain' });
  setMailEnv(q, { MAIL_HOST: '127.0.0.1', MAIL_PORT: smtp.port, MAIL_FROM: 'app@example.test', MAIL_TIMEOUT: 3 });
});
input.after(async () => {
  await smtp?.close();
  await q?.cleanup();
});

input('before mail:init and db:apply: mail:logs says the table is missing; mail:test says the template is', () => {
  const logs = q.run(['mail:logs']);
  assert.is(logs.status, 1);
  assert.is(
    logs.stderr,
    "Erreur : table mail_log absente : la base SQLite storage/database.sqlite n'existe pas encore.\nConseil : lancez « fw mail:init » puis « fw db:apply ».\n",
  );
  assert.not.ok(q.exists('storage/database.sqlite'), 'mail:logs creates no database');
  const test = q.run(['mail:test', '--to', 'a@example.test']);
  assert.is(test.status, 1);
  assert.match(test.stderr, /^Erreur : Modèle de message introuvable : mail\/test_subject\.txt .*\nConseil : « fw mail:init » écrit le modèle « test »/);
  assert.is(smtp.dataCount(), 0);
});

input('mail:render prints the subject, [TEXTE] and [HTML], with a JSON context; HTML autoescaped, text not', () => {
  assert.is(q.run(['mail:init']).status, 0);
  q.write('mvc/views/mail/bienvenue_subject.txt', 'Bienvenue {{ nom }} !\n');
  q.write('mvc/views/mail/bienvenue_text.txt', 'Bonjour {{ nom }} & co\n');
  q.write('mvc/views/mail/bienvenue_html.html', '<p>Bonjour {{ nom }}</p>\n');
  q.write('mvc/views/mail/court_subject.txt', 'Court');
  q.write('mvc/views/mail/court_text.txt', 'Sans HTML.');
  q.write('contexte.json', JSON.stringify({ nom: 'Zoé <b>' }));
  const run = q.run(['mail:render', 'bienvenue', '--context', 'contexte.json']);
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stdout, 'Sujet : Bienvenue Zoé <b> !\n\n[TEXTE]\nBonjour Zoé <b> & co\n\n[HTML]\n<p>Bonjour Zoé &lt;b&gt;</p>\n');
  const plain = q.run(['mail:render', 'court']);
  assert.is(plain.stdout, 'Sujet : Court\n\n[TEXTE]\nSans HTML.\n\n[HTML]\n(aucune partie HTML : mvc/views/mail/court_html.html absent)\n');
  const test = q.run(['mail:render', 'test']);
  // app_name is the configured one (APP_NAME, else fw-mvc), as sendMail gives it.
  const appName = /^APP_NAME=(.+)$/m.exec(q.read('env/dev'))?.[1] ?? 'fw-mvc';
  assert.match(test.stdout, new RegExp(`^Sujet : Message de test de ${appName}\\n\\n\\[TEXTE\\]\\nBonjour,\\n`));
  assert.is(smtp.dataCount(), 0, 'render sends nothing');
});

input('mail:render gives app_name as sendMail does, and names the variables the context lacks and the empty links', () => {
  q.write('mvc/views/mail/lien_subject.txt', 'Lien pour {{ app_name }}\n');
  q.write('mvc/views/mail/lien_text.txt', '{{ email }} : {{ reset_url }}{% for x in items %}{{ x }}{{ loop.index }}{% endfor %}{% set y = 1 %}{{ y }}\n');
  q.write('mvc/views/mail/lien_html.html', '<a href="{{ reset_url }}">{{ email | upper }}</a> {{ trans("k", { n: 1 }) }}\n');
  const bare = q.run(['mail:render', 'lien']);
  assert.is(bare.status, 0, bare.stderr);
  const appName = /^APP_NAME=(.+)$/m.exec(q.read('env/dev'))?.[1] ?? 'fw-mvc';
  assert.match(bare.stdout, new RegExp(`^Sujet : Lien pour ${appName}\n`));
  assert.match(bare.stdout, '<a href=""></a>');
  assert.is(
    bare.stderr,
    'Attention : variables absentes du contexte, rendues vides : email, items, reset_url.\n' +
      'Conseil : donnez-les dans un fichier JSON : « fw mail:render lien --context contexte.json » avec { "email": "…", "items": "…", "reset_url": "…" }.\n' +
      'Attention : 1 lien(s) vide(s) (href="" ou src="") dans la partie [HTML].\n',
  );
  q.write('lien.json', JSON.stringify({ email: 'zoe@example.test', items: [] }));
  const partial = q.run(['mail:render', 'lien', '--context', 'lien.json']);
  assert.is(partial.stderr.split('\n')[0], 'Attention : variable absente du contexte, rendue vide : reset_url.');
  assert.is(partial.stderr.split('\n')[1], 'Conseil : ajoutez-les à lien.json, par exemple { "reset_url": "…" }.');
  q.write('lien.json', JSON.stringify({ email: 'zoe@example.test', items: ['a'], reset_url: 'https://example.test/r/1', app_name: 'Autre' }));
  const full = q.run(['mail:render', 'lien', '--context', 'lien.json']);
  assert.is(full.stderr, '', 'nothing to say when the context gives everything');
  assert.match(full.stdout, /^Sujet : Lien pour Autre\n/);
  assert.match(full.stdout, '<a href="https://example.test/r/1">ZOE@EXAMPLE.TEST</a>');
});

input('mail:render: an unknown template, a bad name, bad JSON, a context that is not an object, a missing file', () => {
  const unknown = q.run(['mail:render', 'absent']);
  assert.is(unknown.status, 1);
  assert.match(unknown.stderr, /^Erreur : Modèle de message introuvable : mail\/absent_subject\.txt \(cherché dans .+\)\.\nConseil : /);
  const bad = q.run(['mail:render', '../secret']);
  assert.is(bad.status, 1);
  assert.match(bad.stderr, /^Erreur : Nom de modèle de message invalide : « \.\.\/secret »/);
  q.write('casse.json', '{ "nom": ');
  const json = q.run(['mail:render', 'test', '--context', 'casse.json']);
  assert.is(json.status, 1);
  assert.match(json.stderr, /^Erreur : contexte « casse\.json » : JSON invalide \(.+\)\.\nConseil : corrigez le fichier : un objet JSON est attendu/);
  q.write('liste.json', '[1, 2]');
  const list = q.run(['mail:render', 'test', '--context', 'liste.json']);
  assert.is(list.status, 1);
  assert.match(list.stderr, /^Erreur : contexte « liste\.json » : un objet JSON est attendu \(lu : une liste\)\./);
  const missing = q.run(['mail:render', 'test', '--context', 'nulle-part.json']);
  assert.is(missing.status, 1);
  assert.match(missing.stderr, /^Erreur : contexte illisible « nulle-part\.json » : fichier introuvable\./);
  const none = q.run(['mail:render']);
  assert.is(none.status, 1);
  assert.match(
    none.stderr,
    /^Erreur : il manque l'argument <gabarit> de « fw mail:render »\.\nConseil : par exemple « fw mail:render test --context contexte\.json »/,
  );
});

input('mail:test: an address with CR/LF, an invalid one or none is refused before any connection; nothing logged', () => {
  assert.is(q.run(['db:apply']).status, 0);
  for (const to of ['a@example.test\r\nBcc: x@evil.test', 'a@example.test\nBcc: x@evil.test']) {
    const run = q.run(['mail:test', '--to', to]);
    assert.is(run.status, 1);
    assert.match(run.stderr, /^Erreur : adresse refusée \(to\) : retour à la ligne \(CR ou LF\) refusé/);
  }
  const invalid = q.run(['mail:test', '--to', 'pas-une-adresse']);
  assert.is(invalid.status, 1);
  assert.match(invalid.stderr, /^Erreur : adresse refusée \(to\) : /);
  const none = q.run(['mail:test']);
  assert.is(none.status, 1);
  assert.is(none.stderr, 'Erreur : il manque le destinataire : « --to <EMAIL> ».\nConseil : par exemple « fw mail:test --to alice@example.com ».\n');
  assert.is(smtp.dataCount(), 0);
  assert.is(q.run(['mail:logs']).stdout, 'mail_log est vide (SQLite storage/database.sqlite) : aucun message enregistré.\n');
});

input('mail:test with a broken configuration names the variables and sends nothing', () => {
  const good = q.read('env/dev');
  q.write('env/dev', good.replace(/MAIL_PORT=\d+/, 'MAIL_PORT=abc').replace('MAIL_FROM=app@example.test', 'MAIL_FROM='));
  try {
    const run = q.run(['mail:test', '--to', 'a@example.test']);
    assert.is(run.status, 1);
    assert.match(
      run.stderr,
      /^Erreur : configuration du mail invalide : MAIL_PORT doit être un numéro de port de 1 à 65535 \(valeur lue : « abc »\) ; MAIL_FROM est vide/,
    );
    assert.match(run.stderr, /\nConseil : corrigez env\/dev .*« fw mail:doctor »/);
  } finally {
    q.write('env/dev', good);
  }
  assert.is(smtp.dataCount(), 0);
});

input('mail:logs shows when a message that failed is tried again, and an expired one with its reason', async () => {
  const db = q.open();
  try {
    const insert =
      'INSERT INTO mail_log (message_type, to_email, subject, transport, status, error_message, related_entity, related_id, created_at, sent_at, attempts, next_attempt_at, message) ' +
      'VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, NULL, ?, ?, ?)';
    await db.insert(insert, [
      'password_reset',
      'zoe@example.test',
      'Lien',
      'smtp',
      'queued',
      '451 : essayez plus tard',
      '2030-01-02 03:00:00',
      2,
      '2030-01-02 03:06:00',
      'fwmail1:x',
    ]);
    await db.insert(insert, [
      'password_reset',
      'bob@example.test',
      'Lien',
      'smtp',
      'expired',
      'contenu expiré le 2030-01-02T03:30:00.000Z avant son envoi',
      '2030-01-02 03:00:00',
      3,
      null,
      null,
    ]);
    await db.insert(insert, ['welcome', 'ana@example.test', 'Bienvenue', 'smtp', 'queued', null, '2030-01-02 03:00:00', 0, '2030-01-02 03:00:00', 'fwmail1:x']);
  } finally {
    await db.close();
  }
  const run = q.run(['mail:logs']);
  assert.is(run.status, 0, run.stderr);
  const out = run.stdout.split('\n');
  const at = (id: number) => out.findIndex((line) => line.startsWith(`  n° ${id} `));
  assert.match(out[at(3)]!, / queued {3}0 essai\(s\) {2}welcome /);
  assert.not.match(out[at(3) + 1] ?? '', 'nouvel essai', 'a message never tried has no retry to show');
  assert.match(out[at(2)]!, / expired {2}3 essai\(s\) /);
  assert.is(out[at(2) + 1], '        erreur : contenu expiré le 2030-01-02T03:30:00.000Z avant son envoi');
  assert.match(out[at(1)]!, / queued {3}2 essai\(s\) {2}password_reset /);
  assert.equal(out.slice(at(1) + 1, at(1) + 3), ['        erreur : 451 : essayez plus tard', '        nouvel essai prévu le 2030-01-02 03:06:00 (essai n° 3)']);
  assert.not.match(run.stdout, 'fwmail1', 'never the body');
});

input.run();
