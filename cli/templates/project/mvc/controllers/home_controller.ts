import { BaseController, type Request, type Response } from 'fw-mvc';

export class HomeController extends BaseController {
  /** GET / */
  static index(request: Request): Response {
    return BaseController.render('home/index.html', { request, context: { title: 'Accueil' } });
  }
}
