import fp from 'fastify-plugin';
import { JobEngine } from './engine';

declare module 'fastify' {
  interface FastifyInstance {
    /** pg-boss over the app's database: the domains register their queues' handlers; `main.ts` starts the workers. */
    jobs: JobEngine;
  }
}

/** The job engine, stopped (its jobs under way finished or handed back) when the app closes, before the database. */
export const jobsPlugin = fp(
  async (app) => {
    const jobs = new JobEngine(app.database, app.log, { maintenanceIntervalSeconds: app.config.jobMaintenanceSeconds });
    app.decorate('jobs', jobs);
    app.addHook('onClose', async () => {
      await jobs.stop();
    });
  },
  { name: 'jobs', dependencies: ['database'] },
);
