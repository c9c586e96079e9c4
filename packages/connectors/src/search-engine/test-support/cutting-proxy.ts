import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP forwarder in front of a real engine that can cut every connection at once, or after a number of
 * request bytes: "the server went away in the middle of an upload", without stopping a server that other
 * tests share. It forwards bytes only; the engine on the other side is real.
 */
export class CuttingProxy {
  private readonly sockets = new Set<Socket>();
  private forwarded = 0;
  private cutAfter = Number.POSITIVE_INFINITY;
  private down = false;
  private server: Server | undefined;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Cut all connections once this many more request bytes have gone through; refuse new ones after. */
  cutAfterBytes(bytes: number): void {
    this.cutAfter = this.forwarded + bytes;
  }

  cut(): void {
    this.down = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.down = false;
    this.cutAfter = Number.POSITIVE_INFINITY;
  }

  get isCut(): boolean {
    return this.down;
  }

  private accept(client: Socket): void {
    if (this.down) {
      client.destroy();
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('data', (chunk: Buffer) => {
      this.forwarded += chunk.length;
      if (this.forwarded >= this.cutAfter) {
        this.cut();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
