/**
 * A TCP proxy on 127.0.0.1 between the app and a server, to play a stalled server (`pause()`: nothing is
 * forwarded either way, connections are still accepted, as by a stopped process) or a dead one (`close()`:
 * nothing listens on the port any more), and to bring it back (`resume()`, `reopen()` on the same port).
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  pause(): void;
  resume(): void;
  /** Stops listening and drops every connection: the port refuses connections. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  reopen(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let paused = false;

  const track = (socket: net.Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (paused) socket.pause();
  };

  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    // pipe() resumes its source: hold both again while the proxy is paused.
    if (paused) {
      client.pause();
      upstream.pause();
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });

  const listen = (port: number): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });

  await listen(0);
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    pause() {
      paused = true;
      for (const socket of sockets) socket.pause();
    },
    resume() {
      paused = false;
      for (const socket of sockets) socket.resume();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
    reopen: () => listen(port),
  };
}
