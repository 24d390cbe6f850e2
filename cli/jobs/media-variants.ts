/**
 * The jobs side of media entries whose variants are made by a job (`"variants": "job"`, docs/uploads.md "Variants
 * made by a job"): `fw make:crud --media` imports `fw-mvc/media/jobs` in the jobs index (`mvc/jobs/index.ts`, what
 * `fw jobs:work` loads) and writes the SQL files of the jobs tables when they are absent, as `fw make:job` does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { jobsSqlFiles } from '../../emitters/jobs/sql-files.js';
import type { PlannedFile } from '../../emitters/planned-file.js';
import { JOBS_INDEX } from './inspect.js';

/** The first lines of a jobs index written by the CLI. */
export const JOBS_INDEX_HEADER = `// Les tâches de fond du projet (fw make:job les ajoute ici) : « fw jobs:work » charge ce fichier, et l'application
// l'importe pour que serve() les traite aussi (docs/jobs.md de fw-mvc).
`;

/** The line of the jobs index that defines the media variants job in the process. */
export const MEDIA_JOBS_IMPORT = "import 'fw-mvc/media/jobs';";

/** The files to write so that the variants job runs in `fw jobs:work` too: the index with its import, the missing SQL files. */
export function mediaVariantsJobFiles(root: string): PlannedFile[] {
  const indexPath = path.join(root, JOBS_INDEX);
  const index = fs.existsSync(indexPath) ? fs.readFileSync(indexPath, 'utf8') : JOBS_INDEX_HEADER;
  const files: PlannedFile[] = jobsSqlFiles().filter((planned) => !fs.existsSync(path.join(root, planned.path)));
  if (!index.split('\n').some((line) => line.trim() === MEDIA_JOBS_IMPORT))
    files.unshift({ path: JOBS_INDEX, content: `${index.trimEnd()}\n${MEDIA_JOBS_IMPORT}\n`, kind: 'canonical' });
  return files;
}
