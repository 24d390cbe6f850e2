/**
 * The files of a new project (the `.ts` layout of docs/decisions.md#names-in-typescript): the template of
 * cli/templates/project/ with its placeholders filled, the framework's layouts, components and error pages,
 * fw_modules.json, and the framework's two packages packed into vendor/ (the project's package.json installs them
 * from there, so the project installs from any folder: docs/install.md). Reads the framework's folders; writes
 * nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from '../errors.js';
import type { FrameworkPackages, PackageSource } from '../framework-packages.js';
import { packPackage } from '../package-tarball.js';

export type Profile = 'standard' | 'auth-mfa';

export interface ProjectOptions {
  /** Project name as typed (`MonProjet`). */
  readonly name: string;
  /** The runtime and the CLI packages of the running `fw` (frameworkPackages()). */
  readonly framework: FrameworkPackages;
  /** `stable`, `main` or `v<version>`, recorded in fw_modules.json. */
  readonly ref: string;
  readonly profile: Profile;
}

export interface ProjectFile {
  /** Path inside the project, with `/` separators. */
  readonly path: string;
  readonly content: Buffer;
}

/** Template names that npm would drop or that tools would treat as real dotfiles inside the framework. */
const DOTFILES: Readonly<Record<string, string>> = {
  _gitignore: '.gitignore',
  _gitkeep: '.gitkeep',
  _vscode: '.vscode',
  '_prebuild-installrc': '.prebuild-installrc',
};

/** Framework view folders copied into `mvc/views/` at creation time (the runtime renders them by these names). */
const FRAMEWORK_VIEW_FOLDERS = ['layouts', 'components', 'errors'] as const;

const PLACEHOLDER = /__(PROJECT_NAME|PACKAGE_NAME|DB_NAME|FW_TARBALL|FW_CLI_TARBALL|FW_VERSION)__/g;

/** The npm package name of a project: its name in lower case. */
export function packageName(name: string): string {
  return name.toLowerCase();
}

/** All the files of the new project, sorted by path. */
export function projectFiles(options: ProjectOptions): ProjectFile[] {
  const { runtime, cli, version } = options.framework;
  const templateDir = path.join(cli.root, 'cli', 'templates', 'project');
  const viewsDir = path.join(runtime.root, 'runtime', 'views');
  const staticDir = path.join(runtime.root, 'runtime', 'static');
  requireFolder(templateDir, 'modèle de projet introuvable');
  for (const folder of FRAMEWORK_VIEW_FOLDERS) requireFolder(path.join(viewsDir, folder), 'vues du framework introuvables');
  requireFolder(staticDir, 'feuille de style du framework introuvable');
  const tarballs = [pack(runtime), pack(cli)] as const;

  const values: Record<string, string> = {
    PROJECT_NAME: options.name,
    PACKAGE_NAME: packageName(options.name),
    DB_NAME: packageName(options.name).replaceAll('-', '_'),
    FW_TARBALL: tarballs[0].path,
    FW_CLI_TARBALL: tarballs[1].path,
    FW_VERSION: version,
  };
  const files = new Map<string, Buffer>();
  const add = (file: string, content: Buffer): void => {
    if (files.has(file)) throw new Error(`deux fichiers du modèle donnent le même chemin : ${file}`);
    files.set(file, content);
  };

  for (const file of listFiles(templateDir)) {
    const target = file
      .split('/')
      .map((part) => DOTFILES[part] ?? part)
      .join('/');
    add(target, fill(fs.readFileSync(path.join(templateDir, file)), values, target.endsWith('.json')));
  }
  for (const folder of FRAMEWORK_VIEW_FOLDERS) {
    for (const file of listFiles(path.join(viewsDir, folder))) {
      add(`mvc/views/${folder}/${file}`, fs.readFileSync(path.join(viewsDir, folder, file)));
    }
  }
  // The ready stylesheet is the one the runtime serves to projects without their own: one copy in the package.
  add('static/tailwind.css', fs.readFileSync(path.join(staticDir, 'tailwind.css')));
  add('fw_modules.json', Buffer.from(modulesFile(options)));
  for (const tarball of tarballs) add(tarball.path, tarball.content);
  if (options.profile === 'auth-mfa') {
    const readme = files.get('README.md')?.toString('utf8') ?? `# ${options.name}\n`;
    files.set('README.md', Buffer.from(readme + AUTH_MFA_README));
  }
  return [...files].map(([file, content]) => ({ path: file, content })).sort((a, b) => a.path.localeCompare(b.path));
}

/** One package of the framework as npm pack makes it, at `vendor/<name>-<version>.tgz`. */
function pack(source: PackageSource): { path: string; content: Buffer } {
  try {
    const packed = packPackage(source.root, { manifest: source.manifest, transform: source.transform });
    return { path: `vendor/${packed.fileName}`, content: packed.content };
  } catch (error) {
    throw new CliError(
      `empaquetage de ${source.name} impossible : ${error instanceof Error ? error.message : String(error)}`,
      "l'installation de fw-mvc est incomplète ; réinstallez le paquet (dans le dépôt du framework, « npm run build »).",
    );
  }
}

/** fw_modules.json: the framework reference the project was created from and its modules. */
function modulesFile(options: ProjectOptions): string {
  const data = {
    framework: { ref: options.ref, version: options.framework.version },
    ...(options.profile === 'auth-mfa' ? { profile: options.profile } : {}),
    modules: options.profile === 'auth-mfa' ? [{ name: 'mfa' }] : [],
  };
  return `${JSON.stringify(data, null, 2)}\n`;
}

const AUTH_MFA_README = `
## Profil auth-mfa

Ce projet a été créé avec \`fw new --profile auth-mfa\` : c'est l'application de démarrage \`mfa\` (la même que
\`fw starter:build mfa\`), écrite par les générateurs de fw-mvc. Elle contient la connexion (\`fw-mvc/auth\`,
\`/login\`), un tableau de bord (\`/dashboard\`), un profil avec le changement de mot de passe (\`/profile\`) et le
second facteur TOTP (\`fw-mvc/mfa\`, pages \`/account/mfa\`). \`fw_modules.json\` enregistre le profil et le module
\`mfa\`.

Pour la lancer :

\`\`\`sh
fw db:init                                                      # la base (SQLite par défaut) et la table fw_migrations
fw db:apply                                                     # les tables des utilisateurs, des rôles et du second facteur
fw auth:user:create --email vous@example.com --password-prompt  # un utilisateur (le mot de passe est demandé deux fois)
npm start
\`\`\`

Ouvrez l'application, connectez-vous avec cet utilisateur, puis activez le second facteur sur \`/account/mfa\` :
scannez le QR code avec une application d'authentification (ou saisissez la clé affichée), confirmez avec un code,
et gardez les dix codes de secours en lieu sûr. À chaque connexion suivante, le mot de passe mène à \`/login/mfa\`,
qui demande le code de l'application (ou un code de secours). Détails : \`node_modules/fw-mvc/docs/auth.md\` et
\`node_modules/fw-mvc/docs/starters.md\`.
`;

/** Replaces the placeholders of a text file; binary files (with a NUL byte) are copied as they are. */
function fill(content: Buffer, values: Record<string, string>, json: boolean): Buffer {
  if (content.includes(0)) return content;
  const text = content.toString('utf8').replace(PLACEHOLDER, (_, key: string) => {
    const value = values[key]!;
    return json ? JSON.stringify(value).slice(1, -1) : value;
  });
  return Buffer.from(text);
}

/** Relative paths (with `/`) of the files under `dir`, sorted. */
function listFiles(dir: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const relative = prefix + entry.name;
    if (entry.isDirectory()) files.push(...listFiles(path.join(dir, entry.name), `${relative}/`));
    else if (entry.isFile()) files.push(relative);
  }
  return files.sort();
}

function requireFolder(dir: string, what: string): void {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new CliError(
      `${what} : le dossier ${dir} n'existe pas.`,
      "l'installation de fw-mvc est incomplète ; réinstallez le paquet (dans le dépôt du framework, restaurez ce dossier).",
    );
  }
}
