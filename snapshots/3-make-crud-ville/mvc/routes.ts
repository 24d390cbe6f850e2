// Application routes. Generators (fw make:crud, fw make:public-*) add their routes to this function.
import type { Router } from 'fw-mvc';
import { HomeController } from './controllers/home_controller.js';
import { ContactController } from './controllers/contact_controller.js';
import { VilleController } from './controllers/ville_controller.js';

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
  // Ville (fw make:crud Ville)
  router.add('GET', '/villes', VilleController.index, { name: 'villes.index' });
  router.add('GET', '/villes/new', VilleController.create, { name: 'villes.new' });
  router.add('POST', '/villes', VilleController.store, { name: 'villes.store' });
  router.add('GET', '/villes/export.csv', VilleController.exportCsv, { name: 'villes.export' });
  router.add('POST', '/villes/bulk-delete', VilleController.bulkDelete, { name: 'villes.bulk_delete' });
  router.add('POST', '/villes/bulk-delete/confirm', VilleController.bulkDeleteConfirm, { name: 'villes.bulk_delete_confirm' });
  router.add('GET', '/villes/{id}', VilleController.show, { name: 'villes.show' });
  router.add('GET', '/villes/{id}/edit', VilleController.edit, { name: 'villes.edit' });
  router.add('POST', '/villes/{id}', VilleController.update, { name: 'villes.update' });
  router.add('POST', '/villes/{id}/delete', VilleController.destroy, { name: 'villes.delete' });
  router.menu('/villes', 'Villes');
}
