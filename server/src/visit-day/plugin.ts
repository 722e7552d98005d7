import fp from 'fastify-plugin';
import { VisitDayService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The staff's visit day (issue 40): the day's visits, Arrived / No-show and the undo; `now` is its clock. */
    visitDay: VisitDayService;
  }
}

/** The visit-day service on the app (tests set `app.visitDay.now`). */
export const visitDayPlugin = fp(
  async (app) => {
    app.decorate('visitDay', new VisitDayService(app.db));
  },
  { name: 'visit-day', dependencies: ['database'] },
);
