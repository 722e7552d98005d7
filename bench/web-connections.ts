// A first visit's connection set-up, which the DevTools network emulation leaves out: it delays each request's
// response by the latency, but opens every connection at once. On a real phone at 150 ms round trips, a new origin
// costs a DNS lookup, a TCP handshake and a TLS 1.3 handshake (3 round trips) before the first request goes out, and
// each further connection to it 2. The browser reaches every origin through this SOCKS5 proxy, which answers each
// CONNECT only after those round trips; the DevTools emulation then adds the request's own round trip and bandwidth.
import net from 'node:net';

export type ConnectionSetup = {
  /** Chromium's arguments: every origin through this proxy, loopback included. */
  args: string[];
  /** A new visitor: no host's address known any more. */
  reset: () => void;
  close: () => Promise<void>;
};

/** Round trips of a connection's handshakes before its first request: TCP, then TLS 1.3. */
export const HANDSHAKE_ROUND_TRIPS = 2;

export async function startConnectionSetup(roundTripMs: number): Promise<ConnectionSetup> {
  // When each host's address is known: one DNS round trip after the first connection to it asked (later ones wait for it).
  const resolvedAt = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let buffered = Buffer.alloc(0);
    let greeted = false;
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!greeted) {
        // Greeting: version 5, n methods, methods. Answer: no authentication.
        if (buffered.length < 2 || buffered.length < 2 + buffered[1]) return;
        buffered = buffered.subarray(2 + buffered[1]);
        greeted = true;
        client.write(Buffer.from([5, 0]));
      }
      const target = connectRequest(buffered);
      if (!target) return;
      client.off('data', onData);
      client.pause();
      if (!resolvedAt.has(target.host)) resolvedAt.set(target.host, Date.now() + roundTripMs);
      const delay = Math.max(0, resolvedAt.get(target.host)! - Date.now()) + HANDSHAKE_ROUND_TRIPS * roundTripMs;
      setTimeout(() => {
        const upstream = net.connect(target.port, target.host === 'localhost' ? '127.0.0.1' : target.host, () => {
          client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
          if (target.rest.length) upstream.write(target.rest);
          client.pipe(upstream).pipe(client);
          client.resume();
        });
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream));
        upstream.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }, delay);
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    args: [`--proxy-server=socks5://127.0.0.1:${port}`, '--proxy-bypass-list=<-loopback>'],
    reset: () => {
      resolvedAt.clear();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A SOCKS5 CONNECT request (IPv4 or a host name) at the start of `data`, and any bytes after it. */
function connectRequest(data: Buffer): { host: string; port: number; rest: Buffer } | undefined {
  if (data.length < 5 || data[0] !== 5 || data[1] !== 1) return undefined;
  const type = data[3];
  let host: string;
  let at: number;
  if (type === 1) {
    if (data.length < 10) return undefined;
    host = [...data.subarray(4, 8)].join('.');
    at = 8;
  } else if (type === 3) {
    const length = data[4];
    if (data.length < 5 + length + 2) return undefined;
    host = data.subarray(5, 5 + length).toString('latin1');
    at = 5 + length;
  } else {
    throw new Error(`SOCKS5 address type ${type} is not supported here`);
  }
  return { host, port: data.readUInt16BE(at), rest: data.subarray(at + 2) };
}
