// Starts the product exactly as `npm start` does, on free ports and a throw-away data folder.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startProduct, type Product } from '../../scripts/product';

export type TestProduct = Product & { dataDir: string; logs: string[] };

/** Ports the OS hands out now (never 3000-3002/4000, so a running dev instance is left alone). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export async function startTestProduct(options: { extraOrigins?: string[] } = {}): Promise<TestProduct> {
  const [shell, booking, admin, api] = await freePorts(4);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-data-'));
  const logs: string[] = [];
  try {
    const product = await startProduct({
      ports: { shell, booking, admin, api },
      dataDir,
      log: (line) => logs.push(line),
      apiEnv: { LOG_LEVEL: 'warn' },
      extraOrigins: options.extraOrigins,
    });
    return {
      ...product,
      dataDir,
      logs,
      stop: async () => {
        await product.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`${error instanceof Error ? error.message : error}\n${logs.join('\n')}`);
  }
}
