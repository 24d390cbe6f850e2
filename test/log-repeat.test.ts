/**
 * RepeatedLog (runtime/logger.ts, docs/runtime.md "Logs"): a cause that repeats is written once, then once per
 * interval with its count, for as long as it goes on; causes are counted apart. The intervals are ended by hand
 * (the scheduler is the test's), and FW_LOG_LEVEL is read by a fresh process.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Logger, RepeatedLog, setLogSink, type LogRecord } from '../runtime/logger.js';

/** A scheduler whose timers run when the test says the interval is over. */
function manualScheduler(): { schedule: (fn: () => void, ms: number) => void; endInterval(): void; pending(): number[] } {
  let timers: Array<{ fn: () => void; ms: number }> = [];
  return {
    schedule: (fn, ms) => void timers.push({ fn, ms }),
    endInterval() {
      const due = timers;
      timers = [];
      for (const { fn } of due) fn();
    },
    pending: () => timers.map(({ ms }) => ms),
  };
}

function capture(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const previous = setLogSink((record: LogRecord) => lines.push(`${record.level} ${record.logger}: ${record.message}`));
  return { lines, restore: () => setLogSink(previous) };
}

test('one line at the first failure, then one per interval with the count, until the cause stops', () => {
  const logs = capture();
  try {
    const clock = manualScheduler();
    const log = new RepeatedLog(new Logger('fw.test'), 10_000, clock.schedule);
    for (let i = 0; i < 500; i++) log.error('redis down', `Redis indisponible sur GET /p${i}`);
    assert.equal(logs.lines, ['ERROR fw.test: Redis indisponible sur GET /p0']);
    assert.equal(clock.pending(), [10_000]);
    clock.endInterval();
    // The last of them, with the count of those not written.
    assert.equal(logs.lines.slice(1), ['ERROR fw.test: Redis indisponible sur GET /p499 (répété 499 fois en 10 s)']);
    for (let i = 0; i < 3; i++) log.error('redis down', 'Redis indisponible sur GET /q');
    clock.endInterval();
    assert.equal(logs.lines.slice(2), ['ERROR fw.test: Redis indisponible sur GET /q (répété 3 fois en 10 s)']);
    // A quiet interval ends the cause: its next failure is written at once again.
    clock.endInterval();
    assert.equal(clock.pending(), []);
    log.error('redis down', 'Redis indisponible sur GET /r');
    assert.is(logs.lines.at(-1), 'ERROR fw.test: Redis indisponible sur GET /r');
    assert.is(logs.lines.length, 4);
  } finally {
    logs.restore();
  }
});

test('causes are counted apart, each at its own level', () => {
  const logs = capture();
  try {
    const clock = manualScheduler();
    const log = new RepeatedLog(new Logger('fw.test'), 2500, clock.schedule);
    for (let i = 0; i < 10; i++) {
      log.error('db', 'Base de données indisponible');
      log.warning('redis', 'Redis : connect ECONNREFUSED');
    }
    clock.endInterval();
    assert.equal(logs.lines, [
      'ERROR fw.test: Base de données indisponible',
      'WARNING fw.test: Redis : connect ECONNREFUSED',
      'ERROR fw.test: Base de données indisponible (répété 9 fois en 2,5 s)',
      'WARNING fw.test: Redis : connect ECONNREFUSED (répété 9 fois en 2,5 s)',
    ]);
  } finally {
    logs.restore();
  }
});

test('FW_LOG_LEVEL: WARNING (or WARN) hides INFO, DEBUG shows everything, an unknown value is INFO', () => {
  const logger = pathToFileURL(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../runtime/logger.js')).href;
  const script = `const { getLogger } = await import(${JSON.stringify(logger)}); const l = getLogger('fw.t'); l.debug('d'); l.info('i'); l.warning('w'); l.error('e');`;
  const levels = (value: string): string[] => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, FW_LOG_LEVEL: value }, encoding: 'utf8' });
    assert.is(run.status, 0, run.stderr);
    return run.stderr
      .trim()
      .split('\n')
      .map((line) => line.split(' ')[1]!);
  };
  assert.equal(levels('WARNING'), ['WARNING', 'ERROR']);
  assert.equal(levels('warn'), ['WARNING', 'ERROR']);
  assert.equal(levels('DEBUG'), ['DEBUG', 'INFO', 'WARNING', 'ERROR']);
  assert.equal(levels('error'), ['ERROR']);
  assert.equal(levels('bavard'), ['INFO', 'WARNING', 'ERROR']);
});

test.run();
