// The address the demo's server listens on, worked out as the server does (docs/runtime.md "Environment files"):
// HOST and PORT from the process first, then from the project's env/dev, then 127.0.0.1:8000.
import { parseEnv } from '../dist/runtime/env.js';

/**
 * @param {Record<string, string | undefined>} processEnv the environment the server is started with
 * @param {string | null} envFileText the project's env/dev, or null when it does not exist
 * @returns {string} for example `http://127.0.0.1:8000`
 */
export function demoAddress(processEnv, envFileText) {
  const file = envFileText === null ? {} : parseEnv(envFileText, 'env/dev');
  const host = processEnv.HOST ?? file.HOST ?? '127.0.0.1';
  const port = processEnv.PORT ?? file.PORT ?? '8000';
  const scheme = (processEnv.SSL_CERTFILE ?? file.SSL_CERTFILE) && (processEnv.SSL_KEYFILE ?? file.SSL_KEYFILE) ? 'https' : 'http';
  return `${scheme}://${host}:${port}`;
}
