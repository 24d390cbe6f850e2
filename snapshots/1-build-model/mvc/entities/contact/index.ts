// Entity Contact. This file is yours: fw-mvc created it once and never overwrites it.
export { Contact } from './contact.js';
export { ContactBase, type ContactData, type ContactRow } from './contact_base.js';
