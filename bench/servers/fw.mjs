/** fw-mvc: an Application with a Router, public routes, its own nunjucks renderer, served by serve(). */
import { Application, Response, Router, configure, html, jsonResponse, serve } from 'fw-mvc';
import { BENCH_DIR, HELLO, PAGE_CONTEXT, PAGE_TEMPLATE, TEXT_TYPE, announce } from '../shared.mjs';

configure({ project_root: BENCH_DIR, views_dir: 'views' });

const router = new Router()
  .add('GET', '/hello', () => new Response(200, HELLO, TEXT_TYPE), { public: true })
  .add('GET', '/json', () => jsonResponse({ message: HELLO }), { public: true })
  .add('GET', '/page', () => html(PAGE_TEMPLATE, 200, PAGE_CONTEXT), { public: true });

const app = new Application(router, { apiRoutesModule: null });
const server = await serve(app, { host: '127.0.0.1', port: 0, announce: false, handleSignals: false, workers: 1 });
announce('fw', server);
