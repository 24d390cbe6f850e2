/** Baseline: node:http with a switch on the URL. */
import http from 'node:http';
import { HELLO, HTML_TYPE, JSON_TYPE, PAGE_CONTEXT, PAGE_TEMPLATE, SECURITY_FLAT, TEXT_TYPE, announce, nunjucksEnv } from '../shared.mjs';

const env = nunjucksEnv();

function send(res, status, type, body) {
  res.writeHead(status, [...SECURITY_FLAT, 'Content-Type', type, 'Content-Length', String(Buffer.byteLength(body))]);
  res.end(body);
}

const server = http.createServer((req, res) => {
  if (req.method !== 'GET') return send(res, 405, TEXT_TYPE, 'Method Not Allowed');
  switch (req.url) {
    case '/hello':
      return send(res, 200, TEXT_TYPE, HELLO);
    case '/json':
      return send(res, 200, JSON_TYPE, JSON.stringify({ message: HELLO }));
    case '/page':
      return send(res, 200, HTML_TYPE, env.render(PAGE_TEMPLATE, PAGE_CONTEXT));
    default:
      return send(res, 404, TEXT_TYPE, 'Not Found');
  }
});
server.listen(0, '127.0.0.1', () => announce('raw', server));
