/** Environment files: `env/<APP_ENV>` is read into process.env; the process environment wins (DECISIONS §3). */
import fs from 'node:fs';
import path from 'node:path';

/** Parses the dotenv-like format: KEY=value, `#` comments, optional single or double quotes. */
export function parseEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim().replace(/^export\s+/, '');
    let value = line.slice(eq + 1).trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) value = value.slice(1, -1);
    out[key] = value;
  }
  return out;
}

/** Loads `<root>/env/<APP_ENV|dev>` into process.env without overriding variables already set. Returns the file's values. */
export function loadEnv(root: string = process.cwd()): Record<string, string> {
  const file = path.join(root, 'env', process.env.APP_ENV || 'dev');
  if (!fs.existsSync(file)) return {};
  const parsed = parseEnv(fs.readFileSync(file, 'utf8'));
  for (const [key, value] of Object.entries(parsed)) if (process.env[key] === undefined) process.env[key] = value;
  return parsed;
}
