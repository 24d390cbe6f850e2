// Application routes. Generators (fw make:crud, fw make:public-*) add their routes to this function.
import type { Router } from 'fw-mvc';
import { HomeController } from './controllers/home_controller.js';
import { ContactController } from './controllers/contact_controller.js';

export function registerRoutes(router: Router): void {
  router.add('GET', '/', HomeController.index, { name: 'home', public: true });
  // Contact (fw make:crud Contact)
  router.add('GET', '/contacts', ContactController.index, { name: 'contacts.index' });
  router.add('GET', '/contacts/new', ContactController.create, { name: 'contacts.new' });
  router.add('POST', '/contacts', ContactController.store, { name: 'contacts.store' });
  router.add('GET', '/contacts/export.csv', ContactController.exportCsv, { name: 'contacts.export' });
  router.add('POST', '/contacts/bulk-delete', ContactController.bulkDelete, { name: 'contacts.bulk_delete' });
  router.add('POST', '/contacts/bulk-delete/confirm', ContactController.bulkDeleteConfirm, { name: 'contacts.bulk_delete_confirm' });
  router.add('GET', '/contacts/{id}', ContactController.show, { name: 'contacts.show' });
  router.add('GET', '/contacts/{id}/edit', ContactController.edit, { name: 'contacts.edit' });
  router.add('POST', '/contacts/{id}', ContactController.update, { name: 'contacts.update' });
  router.add('POST', '/contacts/{id}/delete', ContactController.destroy, { name: 'contacts.delete' });
  router.menu('/contacts', 'Contacts');
}
