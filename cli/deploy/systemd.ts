/**
 * The systemd units of `fw deploy:init`: the service (cli/templates/deploy/app.service filled in) and the nightly
 * backup, `<app>-backup.service` with its `<app>-backup.timer` (docs/deploy.md "Backups").
 */
import fs from 'node:fs';
import path from 'node:path';
import { fill, templateText } from './nginx.js';

/**
 * Where the service runs from. A project in `<base>/releases/<version>` (`fw deploy:release`, docs/deploy.md
 * "Releases") runs from `<base>/current` and writes in `<base>/shared/storage`; any other folder runs from itself.
 */
export function serviceFolders(root: string): { workdir: string; storage: string; base: string | undefined } {
  const real = fs.realpathSync(root);
  const releases = path.dirname(real);
  if (path.basename(releases) === 'releases') {
    const base = path.dirname(releases);
    return { workdir: path.join(base, 'current'), storage: path.join(base, 'shared', 'storage'), base };
  }
  return { workdir: root, storage: path.join(root, 'storage'), base: undefined };
}

export interface UnitValues {
  readonly app: string;
  readonly root: string;
  /** The system user the service runs as (created by the operator: README_DEPLOY.md). */
  readonly user: string;
  /** Absolute path of the node executable. */
  readonly node: string;
}

export function systemdUnit(values: UnitValues): string {
  const folders = serviceFolders(values.root);
  return fill(templateText('app.service'), { APP: values.app, WORKDIR: folders.workdir, STORAGE: folders.storage, USER: values.user, NODE: values.node });
}

/** `<app>-backup.service`: `fw backup:create --keep 14` in the served folder, hardened like the application. */
export function backupServiceUnit(values: UnitValues): string {
  const folders = serviceFolders(values.root);
  return fill(templateText('backup.service'), { APP: values.app, WORKDIR: folders.workdir, STORAGE: folders.storage, USER: values.user, NODE: values.node });
}

/** `<app>-backup.timer`: daily, caught up at boot (Persistent=true). */
export function backupTimerUnit(app: string): string {
  return fill(templateText('backup.timer'), { APP: app });
}

/** `Key=value` lines of the [Service] section (a key given twice keeps its values in order). */
export function unitSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1]!;
      continue;
    }
    const eq = line.indexOf('=');
    if (section !== 'Service' || eq === -1) continue;
    const key = line.slice(0, eq).trim();
    settings.set(key, [...(settings.get(key) ?? []), line.slice(eq + 1).trim()]);
  }
  return settings;
}
