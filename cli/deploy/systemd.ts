/** The systemd unit of `fw deploy:init` (cli/templates/deploy/app.service filled in). */
import { fill, templateText } from './nginx.js';

export interface UnitValues {
  readonly app: string;
  readonly root: string;
  /** The system user the service runs as (created by the operator: README_DEPLOY.md). */
  readonly user: string;
  /** Absolute path of the node executable. */
  readonly node: string;
}

export function systemdUnit(values: UnitValues): string {
  return fill(templateText('app.service'), { APP: values.app, ROOT: values.root, USER: values.user, NODE: values.node });
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
