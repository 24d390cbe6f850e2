/**
 * The address `npm start` (or `npm run dev`) of a project will listen on, for the messages of `fw new` and
 * `fw starter:build`: HOST and PORT of the process's environment win over those of the project's env/<APP_ENV|dev>,
 * as they do for the server (docs/runtime.md "Environment files"), then 127.0.0.1 and 8000. A wildcard host
 * (0.0.0.0, ::) is shown as the loopback, the address a browser on the machine opens. Never throws: an env file that
 * cannot be read gives the defaults (the server's own start says what is wrong with it).
 */
import fs from 'node:fs';
import path from 'node:path';

export async function startAddress(root: string): Promise<string> {
  let values: Record<string, string> = {};
  const name = process.env.APP_ENV || 'dev';
  try {
    // Loaded here, once the project is written: `fw new` must say clearly when the framework's runtime is missing.
    const { parseEnv } = await import('../runtime/env.js');
    values = parseEnv(fs.readFileSync(path.join(root, 'env', name), 'utf8'), `env/${name}`);
  } catch {
    values = {};
  }
  const pick = (key: string, fallback: string): string => (process.env[key] || values[key] || fallback).trim() || fallback;
  let host = pick('HOST', '127.0.0.1');
  if (host === '0.0.0.0' || host === '::' || host === '[::]') host = '127.0.0.1';
  if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
  return `http://${host}:${pick('PORT', '8000')}`;
}
