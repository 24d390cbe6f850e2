// Configuration: env/<APP_ENV> (env/dev by default) is read first; variables of the process win.
import { fileURLToPath } from 'node:url';
import { configure, loadEnv } from 'fw-mvc';

// The project root: this file's folder, or its parent once compiled to dist/config.js (npm run build).
const root = fileURLToPath(new URL(import.meta.url.endsWith('.js') ? '..' : '.', import.meta.url));
loadEnv(root);

const dbDriver = process.env.DB_DRIVER ?? 'sqlite';
if (dbDriver !== 'sqlite' && dbDriver !== 'mariadb') {
  throw new Error(`DB_DRIVER doit valoir sqlite ou mariadb (valeur lue : « ${dbDriver} »).`);
}

configure({
  project_root: root,
  app_name: process.env.APP_NAME ?? '__PROJECT_NAME__',
  app_env: process.env.APP_ENV ?? 'dev',
  db_driver: dbDriver,
  db_file: process.env.DB_FILE ?? 'storage/database.sqlite',
  // MariaDB: the application connects with the DB_APP_* account (SELECT, INSERT, UPDATE, DELETE only).
  db_host: process.env.DB_APP_HOST || '127.0.0.1',
  db_port: Number(process.env.DB_APP_PORT || 3306),
  db_name: process.env.DB_NAME || '__DB_NAME__',
  db_user: process.env.DB_APP_LOGIN || '',
  db_password: process.env.DB_APP_PWD ?? '',
  // Uploaded files (`fw upload:init` creates the folders; docs/uploads.md of fw-mvc).
  upload_root: process.env.UPLOAD_ROOT || 'storage/uploads',
  // Mail (fw-mvc/mail; docs/mail.md of fw-mvc): the MAIL_* variables, read the same way by `fw mail:*`.
  mail_transport: (process.env.MAIL_TRANSPORT || 'smtp') as 'smtp' | 'console' | 'file',
  mail_host: process.env.MAIL_HOST ?? '',
  mail_port: Number(process.env.MAIL_PORT || 587),
  mail_username: process.env.MAIL_USERNAME ?? '',
  mail_password: process.env.MAIL_PASSWORD ?? '',
  mail_from: process.env.MAIL_FROM ?? '',
  mail_use_tls: process.env.MAIL_USE_TLS === 'true',
  mail_use_ssl: process.env.MAIL_USE_SSL === 'true',
  mail_timeout: Number(process.env.MAIL_TIMEOUT || 10),
  mail_enabled: process.env.MAIL_ENABLED !== 'false',
  mail_dir: process.env.MAIL_DIR || 'storage/mail',
});
