import http from 'node:http';
import type { Registry } from 'prom-client';

/** GET /metrics from `registry` on its own port, so the public port never exposes it; anything else is 404. */
export async function serveMetrics(registry: Registry, host: string, port: number): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
      (err: Error) => response.writeHead(503, { 'content-type': 'text/plain' }).end(`Metrics unavailable: ${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
