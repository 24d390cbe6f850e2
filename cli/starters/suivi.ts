/**
 * Starter 4, `suivi` / `suivi-comportement-eleves` (docs/decisions.md#starters; docs/starters.md): a teacher's record of
 * behaviour in class. Eleve, Cours and ObservationCours (a pupil in a course: boolean behaviour flags, a remark, the
 * date and time), their CRUD pages behind the login of the framework's `users` table (no Utilisateur entity), the
 * profile, and a dashboard of counts, latest observations and per-pupil totals of each flag.
 */
import { fieldAnswer, type RelationDefinition } from '../definitions.js';
import type { Starter } from './starter.js';

/** The behaviour flags of an observation, in the order of the form, the list and the dashboard. */
export const SUIVI_FLAGS = [
  { name: 'participation', label: 'Participation', positive: true },
  { name: 'bavardage', label: 'Bavardage', positive: false },
  { name: 'retard', label: 'Retard', positive: false },
  { name: 'travail_non_fait', label: 'Travail non fait', positive: false },
  { name: 'oubli_materiel', label: 'Oubli de matériel', positive: false },
] as const;

/** Many-to-one from an observation; deleting the pupil or the course deletes its observations. */
function observationOf(field: string, entity: string): RelationDefinition {
  return {
    name: `observation_${field.replace(/_id$/, '')}`,
    type: 'many_to_one',
    from_entity: 'ObservationCours',
    from_field: field,
    to_entity: entity,
    to_field: 'id',
    on_delete: 'CASCADE',
    on_update: 'CASCADE',
  };
}

export const suiviStarter: Starter = {
  id: '4',
  aliases: ['suivi', 'suivi-comportement-eleves'],
  description: 'Suivi du comportement : élèves, cours, observations (participation, bavardage, retard…, remarque) ; tableau de bord.',
  acceptsPublic: false,
  privateReason: "ses pages montrent des données d'élèves, elles demandent d'être connecté",
  entryPath: '/dashboard',
  pieces: () => [
    {
      kind: 'entity',
      name: 'Eleve',
      table: 'eleves',
      extras: { description: 'Élève suivi', label: 'Élève', label_plural: 'Élèves' },
      fields: [
        fieldAnswer('nom', 'VARCHAR(100)'),
        fieldAnswer('prenom', 'VARCHAR(100)', { label: 'Prénom' }),
        fieldAnswer('classe', 'VARCHAR(20)', { filter: true }),
      ],
    },
    {
      kind: 'entity',
      name: 'Cours',
      table: 'cours',
      extras: { description: 'Séance de cours avec une classe', label: 'Cours', label_plural: 'Cours' },
      fields: [
        fieldAnswer('intitule', 'VARCHAR(150)', { label: 'Intitulé' }),
        fieldAnswer('matiere', 'VARCHAR(100)', { label: 'Matière', filter: true }),
        fieldAnswer('classe', 'VARCHAR(20)', { filter: true }),
        fieldAnswer('date_cours', 'DATE', { label: 'Date' }),
      ],
    },
    {
      kind: 'entity',
      name: 'ObservationCours',
      table: 'observations_cours',
      extras: {
        description: "Observation du comportement d'un élève pendant un cours",
        label: 'Observation',
        label_plural: 'Observations',
        plural: 'observations',
      },
      fields: [
        fieldAnswer('eleve_id', 'INT', { label: 'Élève' }),
        fieldAnswer('cours_id', 'INT', { label: 'Cours' }),
        fieldAnswer('observe_le', 'DATETIME', { label: 'Date et heure' }),
        // No list filter on the flags: the dashboard totals them per pupil, and the list stays short on a phone.
        ...SUIVI_FLAGS.map((flag) => fieldAnswer(flag.name, 'BOOLEAN', { label: flag.label })),
        fieldAnswer('remarque', 'TEXT', { nullable: true }),
      ],
    },
    { kind: 'relation', relation: observationOf('eleve_id', 'Eleve') },
    { kind: 'relation', relation: observationOf('cours_id', 'Cours') },
    { kind: 'crud', entity: 'Eleve' },
    { kind: 'crud', entity: 'Cours' },
    { kind: 'crud', entity: 'ObservationCours' },
    { kind: 'auth' },
    { kind: 'account', dashboard: 'suivi' },
  ],
};
