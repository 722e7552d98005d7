// The host: owns the router and page frame; learns where the remotes live from remotes.json at run time.
import brand from './brand.config.json';
import { createBundleConfig, defaultPorts, modeFromArgv } from './scripts/rspack-common';

export default (_env: unknown, argv?: { mode?: string }) =>
  createBundleConfig({
    name: 'shell',
    mode: modeFromArgv(argv),
    isRemote: false,
    htmlTitle: brand.title,
    copyPublic: true,
    serveDevRemotesJson: true,
    port: Number(process.env.SHELL_PORT) || defaultPorts.shell,
  });
