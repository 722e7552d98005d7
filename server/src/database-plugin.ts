import fp from 'fastify-plugin';
import type { DatabaseHandle, Db } from './base/db/connection';
import type { Config } from './config';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    database: DatabaseHandle;
    config: Config;
  }
}

/** Shares the database handle and the configuration with every route plugin. */
export const databasePlugin = fp<{ database: DatabaseHandle; config: Config }>(
  async (app, { database, config }) => {
    app.decorate('database', database);
    app.decorate('db', database.db);
    app.decorate('config', config);
  },
  { name: 'database' },
);
