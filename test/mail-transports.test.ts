/**
 * The transport contract of fw-mvc/mail (`MailTransport`), one suite run against each transport: SMTP (to a
 * local smtp-server), console (captured) and file (a temporary folder). Each must deliver the message whole
 * (UTF-8 subject, names, text, HTML, Message-ID), answer with the message's id and its accepted recipients, and
 * close without error. A new transport joins by adding its backend here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configure, resetConfig } from '../runtime/index.js';
import { consoleTransport, fileTransport, prepareMail, smtpTransport, type MailTransport } from '../runtime/mail/index.js';
import { startSmtp } from './helpers/smtp.js';

/** A transport under test and how to read back, as plain fields, the last message it delivered. */
interface Backend {
  readonly name: string;
  make(): Promise<{ transport: MailTransport; lastDelivered(): Promise<Delivered>; dispose(): Promise<void> }>;
}

interface Delivered {
  readonly subject: string;
  readonly to: string;
  readonly from: string;
  readonly text: string;
  readonly html: string | undefined;
  readonly messageId: string | undefined;
}

async function parsedDelivery(raw: string | Buffer): Promise<Delivered> {
  const parsed = await simpleParser(raw);
  const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
  return {
    subject: parsed.subject ?? '',
    to: to?.text ?? '',
    from: parsed.from?.text ?? '',
    text: (parsed.text ?? '').replace(/\n$/, ''),
    html: typeof parsed.html === 'string' ? parsed.html : undefined,
    messageId: parsed.messageId,
  };
}

const backends: Backend[] = [
  {
    name: 'smtp',
    async make() {
      const server = await startSmtp({ tls: 'plain' });
      return {
        transport: smtpTransport({ host: '127.0.0.1', port: server.port }),
        lastDelivered: async () => parsedDelivery(server.received.at(-1)!.raw),
        dispose: () => server.close(),
      };
    },
  },
  {
    name: 'file',
    async make() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-mail-transport-'));
      return {
        transport: fileTransport(dir),
        lastDelivered: async () => parsedDelivery(fs.readFileSync(path.join(dir, fs.readdirSync(dir).sort().at(-1)!))),
        dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'console',
    async make() {
      let printed = '';
      return {
        transport: consoleTransport((text) => (printed = text)),
        async lastDelivered() {
          const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(printed)?.[1] ?? '';
          const text = /\n\[TEXTE\]\n([\s\S]*?)\n(?:\[HTML\]\n|--- fin du message ---)/.exec(printed)?.[1] ?? '';
          const html = /\n\[HTML\]\n([\s\S]*?)\n--- fin du message ---/.exec(printed)?.[1];
          return {
            subject: header('Subject'),
            to: header('To'),
            from: header('From'),
            text,
            html,
            messageId: /^--- fw-mvc mail (\S+) ---$/m.exec(printed)?.[1],
          };
        },
        dispose: async () => {},
      };
    },
  },
];

for (const backend of backends) {
  const test = suite(`mail: transport contract (${backend.name})`);
  test.before.each(() => {
    resetConfig();
    configure({ mail_from: 'Mon Appli <app@example.test>' });
  });
  test.after.each(() => resetConfig());

  test('delivers the message whole and answers with its id and accepted recipients', async () => {
    const { transport, lastDelivered, dispose } = await backend.make();
    try {
      const { message } = prepareMail({
        to: { name: 'Zoé Dupré', address: 'zoe@example.test' },
        subject: 'Été — « reçu » ✓',
        text: 'Ligne 1\nLigne 2 & fin',
        html: '<p>Été</p>',
      });
      const result = await transport.send(message);
      assert.is(transport.name, backend.name);
      assert.is(result.messageId, message.messageId);
      assert.equal(result.accepted, ['zoe@example.test']);
      assert.equal(result.rejected, []);
      assert.ok(result.response.length > 0);
      const delivered = await lastDelivered();
      assert.is(delivered.subject, 'Été — « reçu » ✓');
      assert.match(delivered.to, /Zoé Dupré.*<?zoe@example\.test>?/);
      assert.match(delivered.from, /Mon Appli.*app@example\.test/);
      assert.is(delivered.text, 'Ligne 1\nLigne 2 & fin');
      assert.is(delivered.html, '<p>Été</p>');
      assert.is(delivered.messageId, message.messageId);
    } finally {
      await transport.close();
      await dispose();
    }
  });

  test('a message without HTML has no HTML part', async () => {
    const { transport, lastDelivered, dispose } = await backend.make();
    try {
      await transport.send(prepareMail({ to: 'a@example.test', subject: 'texte', text: 'seul' }).message);
      const delivered = await lastDelivered();
      assert.is(delivered.text, 'seul');
      assert.is(delivered.html, undefined);
    } finally {
      await transport.close();
      await dispose();
    }
  });

  test.run();
}
