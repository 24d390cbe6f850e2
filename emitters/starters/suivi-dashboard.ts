/**
 * The dashboard of the `suivi` starter (docs/starters.md): `DashboardController` at `GET /dashboard` and
 * `mvc/models/dashboard_model.ts`, whose queries count pupils, courses and observations, list the latest
 * observations, and total each behaviour flag per pupil (one GROUP BY, the same SQL on SQLite and MariaDB). The
 * tables and columns come from the IR of the starter's entities. Manual files: created once, the user's afterwards.
 */
import { requireEntity, requireField } from '../ir-lookup.js';
import type { EntityNode, ModelNode } from '../../compiler/ir.js';
import { tsString } from '../text.js';
import { DASHBOARD_CONTROLLER } from './account-controllers.js';

export const DASHBOARD_MODEL = 'DashboardModel';

/** A behaviour flag: a boolean field of the observation, shown as a badge (green when positive, amber otherwise). */
export interface SuiviFlag {
  readonly name: string;
  readonly column: string;
  readonly label: string;
  readonly positive: boolean;
}

/** The tables and columns the dashboard reads, as the IR names them. */
export interface SuiviDashboardSpec {
  readonly pupils: { readonly table: string; readonly key: string; readonly nom: string; readonly prenom: string; readonly classe: string };
  readonly courses: { readonly table: string; readonly key: string; readonly label: string; readonly plural: string };
  readonly observations: {
    readonly table: string;
    readonly key: string;
    readonly pupil: string;
    readonly course: string;
    readonly at: string;
    readonly remark: string;
    readonly plural: string;
  };
  readonly pupilsPlural: string;
  readonly flags: readonly SuiviFlag[];
}

function column(entity: EntityNode, field: string): string {
  return requireField(entity, field, 'tableau de bord suivi').column;
}

/** The dashboard's description from the model: the entities Eleve, Cours and ObservationCours, and which flags are positive. */
export function suiviDashboardSpec(model: ModelNode, positive: ReadonlySet<string>): SuiviDashboardSpec {
  const pupil = requireEntity(model, 'Eleve', 'tableau de bord suivi');
  const course = requireEntity(model, 'Cours', 'tableau de bord suivi');
  const observation = requireEntity(model, 'ObservationCours', 'tableau de bord suivi');
  return {
    pupils: { table: pupil.table, key: pupil.primaryKey.column, nom: column(pupil, 'nom'), prenom: column(pupil, 'prenom'), classe: column(pupil, 'classe') },
    courses: { table: course.table, key: course.primaryKey.column, label: column(course, 'intitule'), plural: course.plural },
    observations: {
      table: observation.table,
      key: observation.primaryKey.column,
      pupil: column(observation, 'eleve_id'),
      course: column(observation, 'cours_id'),
      at: column(observation, 'observe_le'),
      remark: column(observation, 'remarque'),
      plural: observation.plural,
    },
    pupilsPlural: pupil.plural,
    flags: observation.fields
      .filter((f) => f.logicalType === 'bool')
      .map((f) => ({ name: f.name, column: f.column, label: f.label, positive: positive.has(f.name) })),
  };
}

export function emitSuiviDashboardModel(spec: SuiviDashboardSpec, command: string): string {
  const { pupils: p, courses: c, observations: o, flags } = spec;
  const flagList = flags.map((f) => `  { name: '${f.name}', label: ${tsString(f.label)}, positive: ${String(f.positive)} },`).join('\n');
  const flagColumns = flags.map((f) => `o.${f.column} AS ${f.name}`).join(', ');
  const flagCounts = flags.map((f) => `COUNT(CASE WHEN o.${f.column} <> 0 THEN 1 END) AS ${f.name}`).join(',\n    ');
  return `// The queries of the dashboard (GET /dashboard). This file is yours: \`${command}\` created it and never
// overwrites it (unless --force). Plain SQL that SQLite and MariaDB both run; every value goes through a \`?\`.
import { fetchAll, fetchOne, formatDate, textOrder, type Row } from 'fw-mvc';

/** The behaviour flags of an observation (boolean columns), in the order of the form. */
export const FLAGS = [
${flagList}
] as const;

export type FlagName = (typeof FLAGS)[number]['name'];

/** How many pupils, courses and observations there are. */
export interface Counts {
  eleves: number;
  cours: number;
  observations: number;
}

/** One of the latest observations, with its pupil and course. */
export interface LatestObservation {
  id: number;
  /** \`12/03/2025 09:30\`: the stored UTC moment in the application's time zone (formatDate). */
  when: string;
  eleve: string;
  classe: string;
  cours: string;
  /** The labels of its flags that are set, positive first. */
  flags: Array<{ label: string; positive: boolean }>;
  remarque: string | null;
}

/** A pupil's number of observations and of each flag set. */
export type PupilTotals = { id: number; eleve: string; classe: string; observations: number } & Record<FlagName, number>;

/** The pupils' totals shown at most (a bigger school filters by class). */
export const TOTALS_MAX = 200;

/** The flags as the latest observations show them: positive first. */
const SHOWN_FLAGS = [...FLAGS].sort((a, b) => Number(b.positive) - Number(a.positive));

function isSet(value: unknown): boolean {
  return value === true || Number(value) === 1;
}

export class ${DASHBOARD_MODEL} {
  static async counts(): Promise<Counts> {
    const row = await fetchOne(
      'SELECT (SELECT COUNT(*) FROM ${p.table}) AS eleves, (SELECT COUNT(*) FROM ${c.table}) AS cours, (SELECT COUNT(*) FROM ${o.table}) AS observations',
    );
    return { eleves: Number(row?.['eleves'] ?? 0), cours: Number(row?.['cours'] ?? 0), observations: Number(row?.['observations'] ?? 0) };
  }

  /** The \`limit\` latest observations, by date and time, then by entry. */
  static async latest(limit = 10): Promise<LatestObservation[]> {
    const rows = await fetchAll(
      \`SELECT o.${o.key} AS id, o.${o.at} AS observe_le, o.${o.remark} AS remarque,
    ${flagColumns},
    e.${p.nom} AS nom, e.${p.prenom} AS prenom, e.${p.classe} AS classe, c.${c.label} AS cours
  FROM ${o.table} o
  JOIN ${p.table} e ON e.${p.key} = o.${o.pupil}
  JOIN ${c.table} c ON c.${c.key} = o.${o.course}
  ORDER BY o.${o.at} DESC, o.${o.key} DESC
  LIMIT ?\`,
      [limit],
    );
    return rows.map((row: Row) => ({
      id: Number(row['id']),
      when: formatDate(row['observe_le']),
      eleve: \`\${String(row['prenom'])} \${String(row['nom'])}\`,
      classe: String(row['classe']),
      cours: String(row['cours']),
      flags: SHOWN_FLAGS.filter((flag) => isSet(row[flag.name])),
      remarque: row['remarque'] === null || row['remarque'] === '' ? null : String(row['remarque']),
    }));
  }

  /** The classes that have pupils, in order. */
  static async classes(): Promise<string[]> {
    const rows = await fetchAll(\`SELECT DISTINCT ${p.classe} AS classe FROM ${p.table} ORDER BY \${textOrder('${p.classe}')}\`);
    return rows.map((row: Row) => String(row['classe']));
  }

  /** Per pupil observed (of \`classe\`, or of every class when empty): the observations and each flag set, by name. */
  static async totals(classe = ''): Promise<PupilTotals[]> {
    const where = classe ? 'WHERE e.${p.classe} = ?' : '';
    const rows = await fetchAll(
      \`SELECT e.${p.key} AS id, e.${p.nom} AS nom, e.${p.prenom} AS prenom, e.${p.classe} AS classe, COUNT(*) AS observations,
    ${flagCounts}
  FROM ${p.table} e
  JOIN ${o.table} o ON o.${o.pupil} = e.${p.key}
  \${where}
  GROUP BY e.${p.key}, e.${p.nom}, e.${p.prenom}, e.${p.classe}
  ORDER BY \${textOrder('e.${p.nom}')}, \${textOrder('e.${p.prenom}')}, e.${p.key}
  LIMIT ?\`,
      classe ? [classe, TOTALS_MAX] : [TOTALS_MAX],
    );
    return rows.map((row: Row) => {
      const flags = {} as Record<FlagName, number>;
      for (const flag of FLAGS) flags[flag.name] = Number(row[flag.name] ?? 0);
      return { id: Number(row['id']), eleve: \`\${String(row['nom'])} \${String(row['prenom'])}\`, classe: String(row['classe']), observations: Number(row['observations']), ...flags };
    });
  }
}
`;
}

export function emitSuiviDashboardController(command: string): string {
  return `// The dashboard of the behaviour record (GET /dashboard, behind login). This file is yours: \`${command}\`
// created it and never overwrites it (unless --force).
import { BaseController, getUser, type Request, type Response } from 'fw-mvc';
import { ${DASHBOARD_MODEL}, FLAGS } from '../models/dashboard_model.js';

export class ${DASHBOARD_CONTROLLER} extends BaseController {
  /** GET /dashboard[?classe=…]: the counts, the latest observations, and the flags per pupil (of one class when chosen). */
  static async index(request: Request): Promise<Response> {
    const classes = await ${DASHBOARD_MODEL}.classes();
    const wanted = request.params['classe']?.[0] ?? '';
    const classe = classes.includes(wanted) ? wanted : '';
    const context = {
      title: 'Tableau de bord',
      user: getUser(request),
      counts: await ${DASHBOARD_MODEL}.counts(),
      latest: await ${DASHBOARD_MODEL}.latest(10),
      totals: await ${DASHBOARD_MODEL}.totals(classe),
      flags: FLAGS,
      classes,
      classe,
    };
    // A page behind the login: the Application sends it with Cache-Control: no-store.
    return BaseController.render('dashboard/index.html', { request, context });
  }
}
`;
}
