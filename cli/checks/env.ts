/**
 * Family `env` (FW-ENV-001 to FW-ENV-006): the Node version against `engines.node` of the project's package.json,
 * the environment file `env/<env>` (present, readable, parsed as the runtime parses it), the keys the server reads
 * at start-up checked as it checks them (DB_DRIVER, the ports, the MariaDB account, the session and rate-limit
 * stores, APP_TIMEZONE), the keys `env/example` documents that `env/<env>` lacks, and what serve() refuses of the
 * processes and their stores (WEB_CONCURRENCY, REDIS_URL), judged by the runtime's own functions. Read-only.
 */
import { isDialectName } from '../../runtime/db/dialect.js';
import { parseEnv } from '../../runtime/env.js';
import { problem, result, type CheckDefinition, type CheckFunction, type CheckResult } from './check.js';
import { entryKind, readSource } from './files.js';

function env(id: number, label: string): CheckDefinition {
  return { id: `FW-ENV-${String(id).padStart(3, '0')}`, family: 'env', label };
}

const D = {
  node: env(1, 'Version de Node'),
  file: env(2, "Fichier d'environnement"),
  keys: env(3, "Valeurs de l'environnement"),
  example: env(4, 'Clés de env/example'),
  processes: env(5, 'Processus (WEB_CONCURRENCY)'),
  redis: env(6, 'Serveur Redis (REDIS_URL)'),
} as const;

export const ENV_DEFINITIONS: readonly CheckDefinition[] = Object.values(D);

/** `>=20`, `^20.11`, `>= 18.0.0`: the lowest version a range accepts (its first comparator), or null. */
export function minimumVersion(range: string): number[] | null {
  const match = /(?:>=|\^|~|=)?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(range.trim());
  if (!match) return null;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function atLeast(version: readonly number[], minimum: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) {
    if ((version[i] ?? 0) !== (minimum[i] ?? 0)) return (version[i] ?? 0) > (minimum[i] ?? 0);
  }
  return true;
}

/** FW-ENV-001: this Node satisfies `engines.node` of package.json (the lowest version the range names). */
export const nodeVersionCheck: CheckFunction = async (context) => {
  const running = process.versions.node;
  const read = readSource(context.root, 'package.json');
  let range: unknown;
  if (read.ok) {
    try {
      range = (JSON.parse(read.text) as { engines?: { node?: unknown } })?.engines?.node;
    } catch {
      range = undefined;
    }
  }
  if (typeof range !== 'string') return [result(D.node, 'OK', `Node ${running} (package.json ne fixe pas engines.node)`)];
  const minimum = minimumVersion(range);
  if (!minimum) return [result(D.node, 'WARN', `Node ${running} ; engines.node « ${range} » illisible`, 'écrivez par exemple « >=20 »')];
  const current = running.split('.').map(Number);
  if (!atLeast(current, minimum)) {
    return [
      { ...result(D.node, 'FAIL', `Node ${running} ; le projet demande ${range}`, `installez Node ${minimum.join('.')} ou plus récent`), file: 'package.json' },
    ];
  }
  return [result(D.node, 'OK', `Node ${running} (engines.node ${range})`)];
};

/** The values of `env/<env>`, or why it cannot be read; shared by the checks of this family. */
function envFile(context: Parameters<CheckFunction>[0]): Promise<{ values: Record<string, string> | null; result: CheckResult }> {
  return context.once('env.file', async () => {
    const relative = `env/${context.appEnv}`;
    const kind = entryKind(context.root, relative);
    if (kind === 'absent') {
      return {
        values: null,
        result: result(
          D.file,
          'WARN',
          `${relative} est absent : le serveur démarre avec les valeurs par défaut`,
          `copiez env/example en ${relative} et complétez-le`,
        ),
      };
    }
    const read = readSource(context.root, relative);
    if (!read.ok) return { values: null, result: { ...result(D.file, 'FAIL', `${relative} : ${read.reason}`), file: relative } };
    try {
      const values = parseEnv(read.text, relative);
      return { values, result: result(D.file, 'OK', `${relative} (${Object.keys(values).length} clés)`) };
    } catch (error) {
      const line = (error as { line?: number }).line;
      return {
        values: null,
        result: {
          ...problem(D.file, 'FAIL', (error as Error).message, 'le serveur refuse de démarrer : corrigez la ligne'),
          file: relative,
          ...(line ? { line } : {}),
        },
      };
    }
  });
}

/** FW-ENV-002: `env/<env>` present (WARN when absent), readable and well-formed (FAIL otherwise). */
export const envFileCheck: CheckFunction = async (context) => [(await envFile(context)).result];

const PORT = /^\s*\d{1,5}\s*$/;

/** The problems of the values the server reads at start-up, one message each. */
function valueProblems(values: Record<string, string | undefined>, settingsError: string | null, stores: ReadonlyArray<[string, readonly string[]]>): string[] {
  const problems: string[] = [];
  const driver = (values.DB_DRIVER ?? 'sqlite').trim() || 'sqlite';
  if (!isDialectName(driver)) problems.push(`DB_DRIVER vaut « ${driver} » : sqlite ou mariadb`);
  for (const key of ['PORT', 'DB_APP_PORT', 'DB_ADMIN_PORT']) {
    const value = values[key];
    if (value === undefined || value.trim() === '') continue;
    if (!PORT.test(value) || Number(value) > 65535) problems.push(`${key} vaut « ${value} » : un numéro de port (1 à 65535)`);
  }
  if (driver === 'mariadb') {
    for (const key of ['DB_NAME', 'DB_APP_LOGIN']) if (!values[key]?.trim()) problems.push(`${key} est vide alors que DB_DRIVER=mariadb`);
  }
  for (const [key, accepted] of stores) {
    const value = values[key]?.trim().toLowerCase();
    if (value && !accepted.includes(value)) problems.push(`${key} vaut « ${values[key]} » : ${accepted.join(', ')}`);
  }
  const max = values.SESSION_MEMORY_MAX;
  if (max !== undefined && max.trim() !== '' && !/^\s*\d+\s*$/.test(max)) problems.push(`SESSION_MEMORY_MAX vaut « ${max} » : un nombre entier`);
  const zone = values.APP_TIMEZONE?.trim();
  if (zone) {
    try {
      new Intl.DateTimeFormat('fr-FR', { timeZone: zone });
    } catch {
      problems.push(`APP_TIMEZONE vaut « ${zone} » : un fuseau IANA (Europe/Paris…)`);
    }
  }
  if (settingsError && problems.length === 0) problems.push(settingsError.replace(/[.]$/, ''));
  return problems;
}

/** FW-ENV-003: the values the server checks at start-up (a bad one stops it): one FAIL per bad value. */
export const envValuesCheck: CheckFunction = async (context) => {
  const file = await envFile(context);
  if (!file.values && file.result.status === 'FAIL') return [result(D.keys, 'SKIP', `env/${context.appEnv} illisible`)];
  // The process environment wins over the file, as when the server starts.
  const values: Record<string, string | undefined> = { ...(file.values ?? {}) };
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) values[key] = value;
  const [{ SESSION_STORE_NAMES }, { RATE_LIMIT_STORE_NAMES }] = await Promise.all([
    import('../../runtime/session/select.js'),
    import('../../runtime/rate-limit/limiter.js'),
  ]);
  const stores: Array<[string, readonly string[]]> = [
    ['SESSION_STORE', SESSION_STORE_NAMES],
    ['RATE_LIMIT_STORE', RATE_LIMIT_STORE_NAMES],
  ];
  const problems = valueProblems(values, context.settingsError?.message ?? null, stores);
  if (problems.length === 0) return [result(D.keys, 'OK', 'DB_DRIVER, ports, stockages et fuseau valides')];
  return problems.map((message) => ({
    ...result(D.keys, 'FAIL', message, `corrigez env/${context.appEnv} : le serveur refuse de démarrer`),
    file: `env/${context.appEnv}`,
  }));
};

/** FW-ENV-004: every key `env/example` documents is set in `env/<env>` (WARN for the missing ones). */
export const envExampleCheck: CheckFunction = async (context) => {
  const file = await envFile(context);
  const example = readSource(context.root, 'env/example');
  if (!example.ok) return [result(D.example, 'SKIP', `env/example : ${example.reason}`)];
  if (!file.values) return [result(D.example, 'SKIP', `env/${context.appEnv} non lu`)];
  let documented: string[];
  try {
    documented = Object.keys(parseEnv(example.text, 'env/example'));
  } catch (error) {
    return [{ ...problem(D.example, 'WARN', (error as Error).message, 'corrigez env/example'), file: 'env/example' }];
  }
  const missing = documented.filter((key) => !(key in file.values!));
  if (missing.length === 0) return [result(D.example, 'OK', `les ${documented.length} clés de env/example sont dans env/${context.appEnv}`)];
  return [
    {
      ...result(D.example, 'WARN', `absentes de env/${context.appEnv} : ${missing.join(', ')}`, 'ajoutez-les (env/example dit leur sens)'),
      file: `env/${context.appEnv}`,
    },
  ];
};

/** The message of a runtime refusal as a result's detail: without its final period. */
function refusal(error: unknown): string {
  return String((error as Error)?.message ?? error).replace(/[.]$/, '');
}

/**
 * The store names the runtime reads (runtime/session/select.ts, runtime/rate-limit/limiter.ts), or null when one is
 * unknown: FW-ENV-003 reports it, the checks that need the names say they could not conclude.
 */
async function storeNames(): Promise<{ session: string; limits: string } | null> {
  const [{ sessionStoreName }, { rateLimitStoreName }] = await Promise.all([
    import('../../runtime/session/select.js'),
    import('../../runtime/rate-limit/limiter.js'),
  ]);
  try {
    return { session: sessionStoreName(), limits: rateLimitStoreName() };
  } catch {
    return null;
  }
}

/**
 * FW-ENV-005: WEB_CONCURRENCY read by the runtime's webConcurrency() (a bad value: FAIL), and with more than one
 * process (`auto`: the cores of this machine) the refusal of a memory session or limit store (runtime/app/stores.ts)
 * and of a WORKER_TIMEOUT the primary cannot read (runtime/app/cluster.ts).
 * The environment only: a `workers` given to serve() in app.ts, or a store set by configure(), is not seen.
 */
export const processesCheck: CheckFunction = async (context) => {
  const file = await envFile(context);
  if (!file.values && file.result.status === 'FAIL') return [result(D.processes, 'SKIP', `env/${context.appEnv} illisible`)];
  const fix = `corrigez env/${context.appEnv} : le serveur refuse de démarrer`;
  const [{ webConcurrency, workerTimeoutMs }, { refuseSplitState }] = await Promise.all([
    import('../../runtime/app/cluster.js'),
    import('../../runtime/app/stores.js'),
  ]);
  const raw = process.env.WEB_CONCURRENCY;
  let workers: number;
  try {
    workers = webConcurrency(raw);
  } catch (error) {
    return [
      { ...result(D.processes, 'FAIL', refusal(error), `écrivez WEB_CONCURRENCY=1, un nombre de processus ou auto ; ${fix}`), file: `env/${context.appEnv}` },
    ];
  }
  // `auto` is this machine's cores: the server's machine may have another number.
  const auto = raw?.trim().toLowerCase() === 'auto' ? `WEB_CONCURRENCY=auto, ${workers} cœur${workers > 1 ? 's' : ''} sur cette machine ; ` : '';
  if (workers === 1) return [result(D.processes, 'OK', `${auto}1 processus`)];
  const stores = await storeNames();
  if (!stores) return [result(D.processes, 'SKIP', `${auto}${workers} processus ; stockage inconnu (FW-ENV-003)`)];
  try {
    refuseSplitState(workers);
  } catch (error) {
    return [{ ...result(D.processes, 'FAIL', `${auto}${refusal(error)}`, fix), file: `env/${context.appEnv}` }];
  }
  try {
    workerTimeoutMs(process.env.WORKER_TIMEOUT);
  } catch (error) {
    return [{ ...result(D.processes, 'FAIL', `${auto}${refusal(error)}`, `écrivez WORKER_TIMEOUT=30 (secondes) ; ${fix}`), file: `env/${context.appEnv}` }];
  }
  return [result(D.processes, 'OK', `${auto}${workers} processus : sessions ${stores.session}, limites de tentatives ${stores.limits}`)];
};

/**
 * FW-ENV-006: with SESSION_STORE or RATE_LIMIT_STORE on redis, REDIS_URL read as the server reads it at start
 * (runtime/redis/client.ts: unset is redis://127.0.0.1:6379; an address the client cannot read is refused). The
 * server is not contacted. The default key prefix `fw:` is a WARN: every application of that Redis left on it
 * shares its keys (sessions are bound to their application's secret, docs/decisions.md#session-stores, but the
 * login-attempt counts are not).
 */
export const redisCheck: CheckFunction = async (context) => {
  const file = await envFile(context);
  if (!file.values && file.result.status === 'FAIL') return [result(D.redis, 'SKIP', `env/${context.appEnv} illisible`)];
  const [{ redisStores }, { DEFAULT_REDIS_PREFIX, checkedRedisUrl, redisPrefix, redisTarget, redisUrl }] = await Promise.all([
    import('../../runtime/app/stores.js'),
    import('../../runtime/redis/client.js'),
  ]);
  let stores: string[];
  try {
    stores = redisStores();
  } catch {
    return [result(D.redis, 'SKIP', 'stockage inconnu (FW-ENV-003)')];
  }
  if (stores.length === 0) return [result(D.redis, 'OK', 'non utilisé : ni SESSION_STORE ni RATE_LIMIT_STORE ne vaut redis')];
  const users = stores.map((store) => `${store}=redis`).join(', ');
  try {
    checkedRedisUrl();
  } catch (error) {
    return [
      {
        ...result(D.redis, 'FAIL', `${users} ; ${refusal(error)}`, `corrigez env/${context.appEnv} : le serveur refuse de démarrer`),
        file: `env/${context.appEnv}`,
      },
    ];
  }
  const given = process.env.REDIS_URL?.trim() ? '' : ' (REDIS_URL absent : valeur par défaut)';
  const found = `${redisTarget(redisUrl())}${given} pour ${users}`;
  if (redisPrefix() === DEFAULT_REDIS_PREFIX) {
    return [
      {
        ...result(
          D.redis,
          'WARN',
          `${found} ; préfixe des clés ${DEFAULT_REDIS_PREFIX} (celui par défaut) : toute autre application de ce serveur Redis restée sur ce préfixe partage ces clés (comptes de tentatives de connexion, index des sessions)`,
          `REDIS_PREFIX=<nom de l'application>: dans env/${context.appEnv}, un préfixe par application`,
        ),
        file: `env/${context.appEnv}`,
      },
    ];
  }
  return [result(D.redis, 'OK', `${found} ; préfixe des clés ${redisPrefix()}`)];
};

export const ENV_CHECKS: readonly CheckFunction[] = [nodeVersionCheck, envFileCheck, envValuesCheck, envExampleCheck, processesCheck, redisCheck];
