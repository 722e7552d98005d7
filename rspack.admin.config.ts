// The staff side (login, register, secured area); exposes its route tree as `admin/routes`.
import brand from './brand.config.json';
import { createBundleConfig, defaultPorts, modeFromArgv } from './scripts/rspack-common';

export default (_env: unknown, argv?: { mode?: string }) =>
  createBundleConfig({
    name: 'admin-remote',
    mode: modeFromArgv(argv),
    isRemote: true,
    exposes: { './routes': './src/routes.tsx' },
    htmlTitle: `${brand.productName} Staff`,
    port: Number(process.env.ADMIN_PORT) || defaultPorts['admin-remote'],
  });
