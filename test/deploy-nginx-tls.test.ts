/**
 * The TLS of the nginx site (cli/deploy/tls-profile.ts, docs/deploy.md "TLS"): Debian's sslscan against Debian's
 * nginx serving the site of `fw deploy:init` on 127.0.0.1 with a self-signed certificate (test/helpers/deploy-stack.ts)
 * finds only TLS 1.2 and 1.3, no CBC suite and no suite without forward secrecy; `nginx -t` says nothing of OCSP for
 * a certificate without a responder (stapling is not written), and accepts the stapling lines written for one that
 * names a responder; `fw deploy:check` reports a site below the profile (FW-DEPLOY-011).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { testSite } from '../cli/deploy/nginx-inspect.js';
import { ocspResponder, readSiteTls, tlsLines, tlsProblems } from '../cli/deploy/tls-profile.js';
import { startDeployStack, type DeployStack } from './helpers/deploy-stack.js';

interface Check {
  readonly id: string;
  readonly status: string;
  readonly detail: string;
}

const test = suite<{ stack: DeployStack }>('déploiement : le TLS du site nginx, vu par sslscan');

test.before(async (context) => {
  context.stack = await startDeployStack();
});

test.after(async ({ stack }) => {
  await stack?.stop();
});

/** sslscan's accepted suites: [protocol, name] pairs. */
function sslscan(port: number): { suites: Array<[string, string]>; output: string } {
  const run = spawnSync('sslscan', ['--no-colour', `127.0.0.1:${port}`], { encoding: 'utf8', timeout: 120_000 });
  assert.not.ok(run.error, 'sslscan is installed (.ci/run installs the Debian package)');
  const suites = [...run.stdout.matchAll(/^(?:Preferred|Accepted)\s+(\S+)\s+\d+\s+bits\s+(\S+)/gm)].map((match): [string, string] => [match[1]!, match[2]!]);
  return { suites, output: run.stdout };
}

test('sslscan: TLS 1.2 and 1.3 only, no CBC suite, every suite forward-secret (ECDHE or TLS 1.3)', ({ stack }) => {
  const { suites, output } = sslscan(stack.httpsPort);
  assert.ok(suites.length > 0, output);
  assert.equal([...new Set(suites.map(([protocol]) => protocol))].sort(), ['TLSv1.2', 'TLSv1.3'], output);
  for (const [protocol, name] of suites) {
    assert.not.match(name, /CBC|SHA$|-SHA1?$|AES(128|256)-SHA(256|384)?$/, `${protocol} ${name}: a CBC suite`);
    if (protocol === 'TLSv1.2') assert.match(name, /^ECDHE-(RSA|ECDSA)-(AES(128|256)-GCM-SHA(256|384)|CHACHA20-POLY1305)$/, `${protocol} ${name}`);
    else assert.match(name, /^TLS_(AES_(128|256)_GCM_SHA(256|384)|CHACHA20_POLY1305_SHA256)$/, `${protocol} ${name}`);
  }
  // The RSA certificate: the three ECDHE-RSA suites of TLS 1.2, TLS 1.3's three.
  assert.is(suites.filter(([protocol]) => protocol === 'TLSv1.2').length, 3, output);
  for (const old of ['SSLv2', 'SSLv3', 'TLSv1.0', 'TLSv1.1']) assert.match(output, new RegExp(`^${old.replace('.', '\\.')}\\s+disabled`, 'm'));
});

test('a self-signed certificate: no stapling written, and nginx -t says nothing of OCSP', ({ stack }) => {
  const site = stack.project.read('deploy/nginx/boutique.conf');
  assert.match(site, 'ssl_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:');
  assert.not.ok(readSiteTls(site).stapling);
  assert.match(site, '# OCSP stapling: off, the certificate');
  const tested = testSite(site, 'deploy/nginx/boutique.conf');
  assert.ok(tested && 'ok' in tested && tested.ok, JSON.stringify(tested));
  assert.not.match((tested as { output: string }).output, /stapling|OCSP/i);
});

test('a certificate naming an OCSP responder: stapling written, nginx -t accepts it (a warning at most)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-tls-ocsp-'));
  try {
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'authorityInfoAccess=OCSP;URI:http://127.0.0.1:9/ocsp',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { encoding: 'utf8' },
    );
    assert.is(made.status, 0, made.stderr);
    assert.is(ocspResponder(cert), 'http://127.0.0.1:9/ocsp');
    const lines = tlsLines(cert);
    assert.match(lines, '    ssl_stapling on;\n    ssl_stapling_verify on;\n');
    assert.match(lines, /resolver \S+/);
    const site = `server {\n    listen 127.0.0.1:1 ssl;\n    ssl_certificate ${cert};\n    ssl_certificate_key ${key};\n${lines}\n}\n`;
    const tested = testSite(site, 'site.conf');
    assert.ok(tested && 'ok' in tested && tested.ok, JSON.stringify(tested));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the profile: what is below it, in words', () => {
  assert.equal(tlsProblems(readSiteTls(`ssl_protocols TLSv1.2 TLSv1.3;\nssl_ciphers ${'ECDHE-RSA-AES128-GCM-SHA256'};\n`)), []);
  assert.equal(tlsProblems(readSiteTls('ssl_protocols TLSv1 TLSv1.2;\n# ssl_ciphers HIGH;\n')), [
    'ssl_protocols accepte TLSv1',
    'ssl_ciphers absent (le défaut de nginx, HIGH:!aNULL:!MD5, admet CBC et les échanges sans confidentialité persistante)',
  ]);
  assert.equal(tlsProblems(readSiteTls('ssl_protocols TLSv1.2;\nssl_ciphers "ECDHE-RSA-AES128-GCM-SHA256:AES128-SHA:DHE-RSA-AES128-GCM-SHA256";\n')), [
    'ssl_ciphers hors du profil : AES128-SHA, DHE-RSA-AES128-GCM-SHA256',
  ]);
});

test('deploy:check: FW-DEPLOY-011 OK on the site of deploy:init, FAIL once a CBC suite or TLS 1.1 is added', ({ stack }) => {
  const { project } = stack;
  const file = 'deploy/nginx/boutique.conf';
  const original = project.read(file);
  const check = (): Check => {
    const run = project.run(['deploy:check', '--json']);
    return (JSON.parse(run.stdout) as { checks: Check[] }).checks.find((found) => found.id === 'FW-DEPLOY-011')!;
  };
  try {
    assert.is(check().status, 'OK');
    project.write(
      file,
      original.replace(/ssl_ciphers ([^;]+);/, 'ssl_ciphers $1:ECDHE-RSA-AES128-SHA;').replace('ssl_protocols TLSv1.2', 'ssl_protocols TLSv1.1 TLSv1.2'),
    );
    const below = check();
    assert.is(below.status, 'FAIL');
    assert.match(below.detail, 'ssl_protocols accepte TLSv1.1');
    assert.match(below.detail, 'ssl_ciphers hors du profil : ECDHE-RSA-AES128-SHA');
  } finally {
    project.write(file, original);
  }
});

test.run();
