/** Starts a real Application on 127.0.0.1:<ephemeral> with a temporary project root; undoes everything on close. */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Application,
  MemorySessionStore,
  NunjucksRenderer,
  Router,
  configure,
  createServer,
  resetConfig,
  setLogSink,
  setSessionStore,
  templateManager,
  type ApplicationOptions,
  type LogRecord,
  type SessionStore,
} from '../../runtime/index.js';
import { makeProject, type TempProject } from './project.js';
import { call, rawRequest, type CallResult, type RawOptions, type RawResponse } from './client.js';

export interface ServerHandle {
  readonly base: string;
  readonly port: number;
  readonly server: http.Server;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 port 0 with `createServer(app)`; `close()` drops every connection. */
export async function listen(server: http.Server, scheme = 'http'): Promise<ServerHandle> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    base: `${scheme}://127.0.0.1:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Log records captured with setLogSink; `restore()` puts the previous sink back. */
export interface LogCapture {
  readonly records: LogRecord[];
  clear(): void;
  restore(): void;
  /** Every record as one text (message + fields), to search for leaks. */
  text(): string;
}

/** Captures the records written with setLogSink; the access lines (`fw.access`) only when `access` is true. */
export function captureLogs(options: { access?: boolean } = {}): LogCapture {
  const records: LogRecord[] = [];
  const previous = setLogSink((record) => {
    if (options.access || record.logger !== 'fw.access') records.push(record);
  });
  return {
    records,
    clear: () => void records.splice(0),
    restore: () => void setLogSink(previous),
    text: () => records.map((r) => `${r.level} ${r.logger} ${r.message} ${JSON.stringify(r.fields ?? {})}`).join('\n'),
  };
}

export interface AppSetup {
  /** Files of the project, relative to its root (`static/…`, `mvc/views/…`, anything else). */
  files?: Record<string, string | Buffer>;
  /** Declares the routes. */
  routes?: (router: Router) => void;
  /** Application options (or a function of the project); `apiRoutesModule` defaults to null here. */
  options?: ApplicationOptions | ((project: TempProject) => ApplicationOptions);
  /** Environment variables set before `new Application` and restored on close. */
  env?: Record<string, string | undefined>;
  /** Extra configuration keys (after project_root). */
  config?: Parameters<typeof configure>[0];
  /** Called after the project exists, before the Application is built. */
  prepare?: (project: TempProject) => void;
  /** The session store; default a fresh memory store; null: the one the configuration names (SESSION_STORE…), as in an app. */
  sessionStore?: SessionStore | null;
}

export interface TestApp extends ServerHandle {
  readonly app: Application;
  readonly router: Router;
  readonly project: TempProject;
  readonly logs: LogCapture;
  /** fetch with `redirect: 'manual'`, body read as text. */
  fetch(path: string, init?: RequestInit): Promise<CallResult>;
  /** Raw bytes over a TCP socket (for what fetch refuses or normalises). */
  raw(payload: string | Buffer | Array<string | Buffer>, options?: RawOptions): Promise<RawResponse>;
}

/**
 * A temporary project, `configure({ project_root })`, a fresh memory session store (unless `sessionStore` says) and template renderer,
 * the Application, and a listening server. `close()` stops the server, restores the environment, the log
 * sink and the configuration (`resetConfig()`), and removes the folder.
 */
export async function startApp(setup: AppSetup = {}): Promise<TestApp> {
  const project = makeProject(setup.files);
  setup.prepare?.(project);
  resetConfig();
  configure({ project_root: project.root, ...setup.config });
  setSessionStore(setup.sessionStore === undefined ? new MemorySessionStore() : setup.sessionStore);
  templateManager.register(new NunjucksRenderer());
  const savedEnv: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(setup.env ?? {})) {
    savedEnv[key] = process.env[key];
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  const logs = captureLogs();
  const router = new Router();
  setup.routes?.(router);
  const options = typeof setup.options === 'function' ? setup.options(project) : setup.options;
  const app = new Application(router, { apiRoutesModule: null, ...options });
  await app.init();
  const handle = await listen(createServer(app));
  return {
    ...handle,
    app,
    router,
    project,
    logs,
    fetch: (path, init) => call(handle.base, path, init),
    raw: (payload, options) => rawRequest(handle.port, payload, options),
    close: async () => {
      await handle.close();
      for (const [key, value] of Object.entries(savedEnv)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      logs.restore();
      resetConfig();
      project.cleanup();
    },
  };
}
