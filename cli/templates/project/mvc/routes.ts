// Application routes. Generators (fw make:crud, fw make:public-*) add their routes to this function.
import type { Router } from 'fw-mvc';
import { HomeController } from './controllers/home_controller.js';

export function registerRoutes(router: Router): void {
  router.add('GET', '/', HomeController.index, { name: 'home', public: true });
}
