// The staff side (login, register, secured area); exposes its route tree as `admin/routes`.
import brand from './brand.config.json';
import { createBundleConfig, createRuntimeProviderConfig, defaultPorts, modeFromArgv } from './scripts/rspack-common';

export default (_env: unknown, argv?: { mode?: string }) => {
  const mode = modeFromArgv(argv);
  const federated = createBundleConfig({
    name: 'admin-remote',
    mode,
    isRemote: true,
    exposes: { './routes': './src/routes.tsx' },
    htmlTitle: `${brand.productName} Staff`,
    port: Number(process.env.ADMIN_PORT) || defaultPorts['admin-remote'],
  });
  // Production: plus the small build that provides the federation runtime to the standalone page.
  return mode === 'production' ? [federated, createRuntimeProviderConfig('admin-remote')] : federated;
};
