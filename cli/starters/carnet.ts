/** Starter 3, `carnet` / `carnet-contacts` (docs/decisions.md#starters): Ville and Contact, many-to-one, CRUD for both. */
import { fieldAnswer } from '../definitions.js';
import { CONTACT_FIELDS } from './contacts.js';
import { loginPieces, type Starter } from './starter.js';

export const carnetStarter: Starter = {
  id: '3',
  aliases: ['carnet', 'carnet-contacts'],
  description: "Carnet d'adresses : villes et contacts (chaque contact dans une ville) ; pages CRUD des deux.",
  acceptsPublic: true,
  entryPath: '/contacts',
  pieces: (options) => [
    { kind: 'entity', name: 'Ville', table: 'villes', fields: [fieldAnswer('nom', 'VARCHAR(100)')] },
    { kind: 'entity', name: 'Contact', table: 'contacts', fields: [...CONTACT_FIELDS, fieldAnswer('ville_id', 'INT', { label: 'Ville', nullable: true })] },
    {
      kind: 'relation',
      relation: {
        name: 'contact_ville',
        type: 'many_to_one',
        from_entity: 'Contact',
        from_field: 'ville_id',
        to_entity: 'Ville',
        to_field: 'id',
        on_delete: 'SET NULL',
        on_update: 'CASCADE',
      },
    },
    { kind: 'crud', entity: 'Ville' },
    { kind: 'crud', entity: 'Contact' },
    ...loginPieces(options),
  ],
};
