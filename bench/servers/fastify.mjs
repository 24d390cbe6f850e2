/** Fastify 5, the security headers set by an onRequest hook (no plugin); keep-alive timeout as node:http's (5 s). */
import Fastify from 'fastify';
import { HELLO, HTML_TYPE, PAGE_CONTEXT, PAGE_TEMPLATE, SECURITY_OBJECT, TEXT_TYPE, announce, nunjucksEnv } from '../shared.mjs';

const env = nunjucksEnv();
const app = Fastify({ logger: false, keepAliveTimeout: 5_000 });

app.addHook('onRequest', (request, reply, done) => {
  reply.headers(SECURITY_OBJECT);
  done();
});
app.get('/hello', (request, reply) => reply.type(TEXT_TYPE).send(HELLO));
app.get('/json', (request, reply) => reply.send({ message: HELLO }));
app.get('/page', (request, reply) => reply.type(HTML_TYPE).send(env.render(PAGE_TEMPLATE, PAGE_CONTEXT)));

await app.listen({ host: '127.0.0.1', port: 0 });
announce('fastify', app.server);
