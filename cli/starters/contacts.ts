/** Starter 1, `contacts` / `contact-simple` (docs/decisions.md#starters): Contact (nom, prenom, email unique, telephone nullable) and its CRUD. */
import { fieldAnswer } from '../definitions.js';
import { loginPieces, type Starter } from './starter.js';

export const CONTACT_FIELDS = [
  fieldAnswer('nom', 'VARCHAR(100)'),
  fieldAnswer('prenom', 'VARCHAR(100)', { label: 'Prénom' }),
  fieldAnswer('email', 'VARCHAR(190)', { label: 'E-mail', unique: true }),
  fieldAnswer('telephone', 'VARCHAR(30)', { label: 'Téléphone', nullable: true }),
] as const;

export const contactsStarter: Starter = {
  id: '1',
  aliases: ['contacts', 'contact-simple'],
  description: 'Contacts : nom, prénom, e-mail unique, téléphone ; liste, fiche, formulaires, export CSV.',
  acceptsPublic: true,
  entryPath: '/contacts',
  pieces: (options) => [
    { kind: 'entity', name: 'Contact', table: 'contacts', fields: CONTACT_FIELDS },
    { kind: 'crud', entity: 'Contact' },
    ...loginPieces(options),
  ],
};
