/**
 * The servers of the crud section of `npm run bench` (bench/crud.mjs): a generated project compiled and served as
 * its `npm start` serves it, and the hand-written node:http + mysql2 + nunjucks page (bench/servers/list.mjs) over the
 * same database.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';

/** The flags of a generated project's `npm start`. */
export const NODE_FLAGS = ['--max-semi-space-size=8'];

/**
 * The compiled project served as `npm start` serves it: `node --max-semi-space-size=8 <dir>/app.js`. Its log (one
 * access line per request on stderr) goes to a file, as it goes to the journal in production: read through a pipe,
 * it would cost this process, the load generator, CPU that the hand-written server (which logs nothing) does not.
 */
export async function serveCompiled(project, dir = 'dist') {
  const log = fs.openSync(project.path(`${dir}-bench.log`), 'a');
  const child = spawn(process.execPath, [...NODE_FLAGS, `${dir}/app.js`], { cwd: project.root, env: projectEnv(), stdio: ['ignore', 'pipe', log] });
  fs.closeSync(log);
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk) => {
      out += chunk;
      const match = /fw-mvc : (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        child.stdout.off('data', onData);
        child.stdout.resume(); // what it writes later is read and dropped
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`le serveur s'est arrêté (${code}) : ${out}\n${fs.readFileSync(project.path(`${dir}-bench.log`), 'utf8')}`)));
  });
  return { url, child };
}

/** The environment a project's server gets here: this one without DB_* and APP_ENV (the project's env/dev says them), on 127.0.0.1 and a free port. */
export function projectEnv() {
  const env = { HOST: '127.0.0.1', PORT: '0' };
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('DB_') && key !== 'APP_ENV' && !(key in env)) env[key] = value;
  return env;
}

/** The environment of the hand-written server: the project's database and its application account. */
export const handWrittenEnv = (database) => ({
  ...process.env,
  BENCH_DB_NAME: database.name,
  BENCH_DB_USER: database.user,
  BENCH_DB_PASSWORD: database.password,
});

export async function spawnHandWritten(script, database) {
  const child = spawn(process.execPath, [...NODE_FLAGS, script], {
    env: handWrittenEnv(database),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`bench/servers/list.mjs s'est arrêté (${code}) : ${out}`)));
  });
  return { url, child };
}

/** The database of the project (env/dev): its name and the application's account. */
export function projectDatabase(project) {
  const env = Object.fromEntries(
    project
      .read('env/dev')
      .split('\n')
      .map((line) => /^([A-Z_]+)=(.*)$/.exec(line))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );
  return { name: env.DB_NAME, user: env.DB_APP_LOGIN, password: env.DB_APP_PWD ?? '' };
}
