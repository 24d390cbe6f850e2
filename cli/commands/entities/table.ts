import type { CommandEntry } from '../../command-entry.js';

/** The entity and model commands (help family `Entités`). */
export const ENTITY_COMMANDS: readonly CommandEntry[] = [
  {
    name: 'make:entity',
    family: 'Entités',
    usage: '<Entité> [--no-input]',
    summary: "Crée le fichier JSON canonique d'une entité.",
    example: 'fw make:entity Contact',
    load: () => import('./make-entity.js'),
  },
  {
    name: 'make:crud',
    family: 'Entités',
    usage: '<Entité> [--dry-run] [--media] [--public] [--check] [--upgrade [--yes]]',
    summary: 'Génère contrôleur, modèle, formulaire, vues et routes du CRUD.',
    example: 'fw make:crud Contact',
    load: () => import('./make-crud.js'),
  },
  {
    name: 'make:relation',
    family: 'Entités',
    usage:
      '[--name <nom> --type many_to_one|many_to_many --from <Entité.champ> --to <Entité.champ> --on-delete <action> --on-update <action> --fk-name <nom> --no-input]',
    summary: 'Assistant de création de relation entre entités (ou options sans questions).',
    load: () => import('./make-relation.js'),
  },
  {
    name: 'sync:entity',
    family: 'Entités',
    usage: '<Entité> [--dry-run] [--force]',
    summary: "Régénère la classe de base et le SQL d'une entité.",
    example: 'fw sync:entity Contact',
    load: () => import('./sync-entity.js'),
  },
  {
    name: 'sync:relations',
    family: 'Entités',
    usage: '[--dry-run] [--force]',
    summary: 'Régénère mvc/entities/relations.sql.',
    load: () => import('./sync-relations.js'),
  },
  {
    name: 'build:model',
    family: 'Entités',
    usage: '[--dry-run] [--force] [--check]',
    summary: 'Régénère les modèles.',
    load: () => import('./build-model.js'),
  },
  {
    name: 'check:model',
    family: 'Entités',
    usage: '[--json]',
    summary: 'Vérifie la cohérence des modèles.',
    load: () => import('./check-model.js'),
  },
];
