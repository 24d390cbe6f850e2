/**
 * The mail section's SMTP server: `smtp-server` on 127.0.0.1 (no TLS, no AUTH: the framework's side is measured,
 * not the cipher), accepting every message and counting them; it tells the parent its port and, on request, the
 * count.
 */
import { SMTPServer } from 'smtp-server';

let received = 0;
const server = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  authOptional: true,
  logger: false,
  // A reverse lookup of 127.0.0.1 before each greeting would time the resolver, not the sender.
  disableReverseLookup: true,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      received++;
      callback();
    });
  },
});
server.on('error', () => {});
server.listen(0, '127.0.0.1', () => {
  process.send({ type: 'ready', port: server.server.address().port });
});
process.on('message', (msg) => {
  if (msg?.type === 'count') process.send({ type: 'count', received });
});
process.on('disconnect', () => process.exit(0));
