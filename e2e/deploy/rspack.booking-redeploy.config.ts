// booking-remote's own production config, built into another folder with one visible change in its timetable
// (REDEPLOY_LABEL replaces "Last updated"), in the browser and in its server render entry: what a team's next release
// of the remote looks like to the shell.
import path from 'node:path';
import type { Configuration } from '@rspack/core';
import bookingConfig from '../../rspack.booking.config';

export default (env: unknown, argv?: { mode?: string }) => {
  const outputDir = process.env.REDEPLOY_OUTPUT_DIR;
  if (!outputDir) throw new Error('REDEPLOY_OUTPUT_DIR is required');
  const configs = ([] as Configuration[]).concat(bookingConfig(env, argv) as Configuration | Configuration[]);
  return configs.map((config) => ({
    ...config,
    output: { ...config.output, path: outputDir },
    // The federated bundle and the server render entry (the runtime provider has no catalogues).
    module:
      config.name !== 'booking-remote-runtime'
        ? {
            ...config.module,
            rules: [
              ...(config.module?.rules ?? []),
              {
                // Before the catalogue loader compiles it: the English text itself changes.
                test: /features[\\/]timetable[\\/]locales[\\/]en\.json$/,
                enforce: 'pre' as const,
                loader: path.join(__dirname, 'visible-change-loader.js'),
              },
            ],
          }
        : config.module,
  }));
};
