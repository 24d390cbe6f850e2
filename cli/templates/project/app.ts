// Entry point: `npm start` (or `npm run dev`, which restarts on change) serves the application.
import './config.js';
import { Application, Router, serve } from 'fw-mvc';
import { registerRoutes } from './mvc/routes.js';

const router = new Router();
registerRoutes(router);

// Listens on HOST:PORT (127.0.0.1:8000 by default), in HTTPS when SSL_CERTFILE and SSL_KEYFILE are set.
// mvc/api_routes.ts, when present, is loaded by the Application.
await serve(new Application(router));
