// Every package of package-lock.json accepts the Node that runs the tests in its `engines.node` (the framework
// supports Node 20): a package that declares a newer one makes `npm ci` print EBADENGINE (docs/decisions.md
// "Dependencies that require a newer Node than ours").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const REPO = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

type Version = [number, number, number];

function parse(text: string): Version {
  const [major = 0, minor = 0, patch = 0] = text
    .replace(/^v/, '')
    .split('.')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : 0));
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** One comparator set of a range as npm writes them in `engines`: `*`, `20`, `20.x`, `10.*`, `>= 12`, `^20.9.0`. */
function accepts(part: string, version: Version): boolean {
  const text = part.trim();
  if (text === '*' || text === '') return true;
  const atLeast = /^>=\s*(\S+)$/.exec(text);
  if (atLeast) return compare(version, parse(atLeast[1]!.replace(/\.[x*]$/, ''))) >= 0;
  const caret = /^\^(\S+)$/.exec(text);
  if (caret) {
    const low = parse(caret[1]!);
    return version[0] === low[0] && compare(version, low) >= 0;
  }
  const major = /^(\d+)(?:\.[x*])?$/.exec(text);
  if (major) return version[0] === Number(major[1]);
  throw new Error(`forme de version non prise en charge par ce test : « ${text} »`);
}

export function rangeAccepts(range: string, version: string): boolean {
  return range.split('||').some((part) => accepts(part, parse(version)));
}

test('the range reader', () => {
  assert.ok(rangeAccepts('>=20', 'v20.0.0'));
  assert.not.ok(rangeAccepts('>=22', 'v20.20.2'));
  assert.ok(rangeAccepts('18 || 20 || >=22', 'v20.1.0'));
  assert.ok(rangeAccepts('^18 || ^20 || >= 21', 'v20.1.0'));
  assert.not.ok(rangeAccepts('^20.9.0', 'v20.8.0'));
  assert.ok(rangeAccepts('10.* || >= 12.*', 'v20.1.0'));
  assert.not.ok(rangeAccepts('20.x || 22.x', 'v21.0.0'));
});

test(`every locked package accepts Node ${process.version}`, () => {
  const lock = JSON.parse(fs.readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; engines?: unknown }>;
  };
  const refused: string[] = [];
  let checked = 0;
  for (const [where, entry] of Object.entries(lock.packages)) {
    const engines = entry.engines;
    if (typeof engines !== 'object' || engines === null || typeof (engines as { node?: unknown }).node !== 'string') continue;
    const range = (engines as { node: string }).node;
    checked++;
    if (!rangeAccepts(range, process.version)) refused.push(`${where || '(root)'}@${entry.version ?? '?'} : node ${range}`);
  }
  assert.ok(checked > 50, `${checked} packages declare engines.node`);
  assert.equal(refused, []);
});

test.run();
