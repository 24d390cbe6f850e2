/**
 * The import of the jobs index that `fw make:job` adds to `app.ts` (emitters/codemods/app-jobs-import.ts,
 * docs/jobs.md "Commands"): added once after the last import, the rest of the file kept as written; an import
 * of the same module written another way counts as present.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { importsJobsIndex, withJobsImport } from '../emitters/codemods/app-jobs-import.js';

const APP = `// Mon point d'entrée.
import './config.js';
import { Application, Router, serve } from 'fw-mvc';
import {
  registerRoutes,
} from './mvc/routes.js';

const router = new Router();
registerRoutes(router);
await serve(new Application(router));
`;

test('added after the last import, nothing else changed', () => {
  const edited = withJobsImport(APP);
  assert.is(edited, APP.replace("} from './mvc/routes.js';\n", "} from './mvc/routes.js';\nimport './mvc/jobs/index.js';\n"));
  assert.is(withJobsImport(edited!), null, 'a second run changes nothing');
});

test('an import of the index written another way counts as present', () => {
  for (const line of [
    "import './mvc/jobs/index.js';",
    "import './mvc/jobs';",
    "import './mvc/jobs/index.ts';",
    "import { sendReportJob } from './mvc/jobs/index.js';",
    "export * from './mvc/jobs/index.js';",
    "if (process.env.JOBS) await import('./mvc/jobs/index.js');",
  ]) {
    assert.ok(importsJobsIndex(`${APP}${line}\n`), line);
    assert.is(withJobsImport(`${APP}${line}\n`), null, line);
  }
  assert.not.ok(
    importsJobsIndex(`${APP}import './mvc/jobs/send_report_job.js';\n// import './mvc/jobs/index.js';\n`),
    'a job file or a comment is not the index',
  );
});

test('a file without imports: the line goes before its first statement, after its leading comment', () => {
  assert.is(withJobsImport('// entrée\nconsole.log(1);\n'), "// entrée\nimport './mvc/jobs/index.js';\nconsole.log(1);\n");
  assert.is(withJobsImport(''), "import './mvc/jobs/index.js';\n");
});

test.run();
