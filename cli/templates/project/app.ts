// Entry point. `npm run dev` serves it from TypeScript and restarts on change; `npm run build` compiles it to
// dist/app.js, which `npm start` (or `node dist/app.js` in production) serves with Node alone.
import { fileURLToPath } from 'node:url';
import './config.js';
import { Application, Router, serve } from 'fw-mvc';
import { registerRoutes } from './mvc/routes.js';

const router = new Router();
registerRoutes(router);

// Listens on HOST:PORT (127.0.0.1:8000 by default), in HTTPS when SSL_CERTFILE and SSL_KEYFILE are set.
// mvc/api_routes.ts, when present, is loaded by the Application: next to this file, so that the compiled
// dist/app.js loads the compiled dist/mvc/api_routes.js.
const apiRoutesModule = fileURLToPath(new URL('./mvc/api_routes', import.meta.url));
await serve(new Application(router, { apiRoutesModule }));
