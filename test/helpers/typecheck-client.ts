/**
 * `node typecheck-client.js <socket> <tsc args…>`: asks the run's type-checker (`typecheck-server.ts`) to run `tsc
 * <args>` in the current folder, prints its output and exits with its code, as `tsc` would.
 */
import net from 'node:net';
import type { TypeCheckAnswer } from './typecheck-server.js';

const [socket, ...args] = process.argv.slice(2);
const connection = net.connect(socket!);
let answer = '';
connection.setEncoding('utf8');
connection.on('connect', () => connection.write(JSON.stringify({ cwd: process.cwd(), args }) + '\n'));
connection.on('data', (chunk: string) => (answer += chunk));
connection.on('error', (err) => {
  process.stderr.write(`Erreur : le vérificateur de types des tests (${socket}) ne répond pas : ${err.message}\n`);
  process.exitCode = 1;
});
connection.on('end', () => {
  const result = JSON.parse(answer) as TypeCheckAnswer;
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.status;
});
