// The public side (timetable, booking, payment results); exposes its route tree as `booking/routes`.
import brand from './brand.config.json';
import { createBundleConfig, defaultPorts, modeFromArgv } from './scripts/rspack-common';

export default (_env: unknown, argv?: { mode?: string }) =>
  createBundleConfig({
    name: 'booking-remote',
    mode: modeFromArgv(argv),
    isRemote: true,
    exposes: { './routes': './src/routes.tsx' },
    htmlTitle: brand.title,
    port: Number(process.env.BOOKING_PORT) || defaultPorts['booking-remote'],
  });
