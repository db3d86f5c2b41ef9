// A TCP proxy in front of one node's gossip port, for one direction of dialling: the link
// between two nodes in the network tests. Cutting it closes every connection through it and
// refuses new ones until it heals — what a partition looks like to the two nodes (the
// kernel here has no netem; bench:network uses Toxiproxy for latency and bandwidth).

import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

export class LinkProxy {
  private readonly sockets = new Set<Socket>();
  private cut = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /** Listen on a free loopback port and forward every connection to `upstreamPort`. */
  static async open(upstreamPort: number): Promise<LinkProxy> {
    let proxy: LinkProxy | undefined;
    const server = createServer((client) => proxy!.accept(client, upstreamPort));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    proxy = new LinkProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  /** Close every connection through the link and refuse new ones. */
  sever(): void {
    this.cut = true;
    for (const socket of this.sockets) socket.destroy();
  }

  heal(): void {
    this.cut = false;
  }

  close(): Promise<void> {
    this.sever();
    return new Promise((r) => this.server.close(() => r()));
  }

  private accept(client: Socket, upstreamPort: number): void {
    if (this.cut) {
      client.destroy();
      return;
    }
    const upstream = connect(upstreamPort, '127.0.0.1');
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(socket);
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        this.sockets.delete(socket);
        other.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
