// The public side (timetable, booking, payment results); exposes its route tree as `booking/routes`.
import brand from './brand.config.json';
import { createBundleConfig, createRuntimeProviderConfig, createServerRenderConfig, defaultPorts, modeFromArgv } from './scripts/rspack-common';

export default (_env: unknown, argv?: { mode?: string }) => {
  const mode = modeFromArgv(argv);
  const federated = createBundleConfig({
    name: 'booking-remote',
    mode,
    isRemote: true,
    exposes: { './routes': './src/routes.tsx' },
    htmlTitle: brand.title,
    port: Number(process.env.BOOKING_PORT) || defaultPorts['booking-remote'],
  });
  // Production: plus the small build that provides the federation runtime to the standalone page, and the server
  // render entry the shell's server loads from this remote's address (booking-remote/src/server).
  return mode === 'production'
    ? [federated, createRuntimeProviderConfig('booking-remote'), createServerRenderConfig('booking-remote', './src/server/render.tsx')]
    : federated;
};
