import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  envelope,
  staffWaitlistQuerySchema,
  staffWaitlistSchema,
  staffWaitlistSummarySchema,
  waitlistAcceptSchema,
  waitlistDeclineSchema,
  waitlistDisownSchema,
  waitlistEntryViewSchema,
  waitlistIdParamSchema,
  waitlistJoinAnswerSchema,
  waitlistJoinBodySchema,
  WaitlistMessage,
  waitlistMoveBodySchema,
  waitlistOfferViewSchema,
  waitlistRemoveBodySchema,
  waitlistTokenParamSchema,
  waitlistUpdateBodySchema,
} from 'shared-api/contract';
import { auditBy } from '../audit';
import { ok } from '../base/errors';
import { bearerSecurity, errorResponses, publicRoute } from '../base/routes';
import { holdLimitedAnswer } from '../checkout';

const tags = ['waitlist'];
const entryAnswer = envelope(waitlistEntryViewSchema);

/** The parent's side: join, the entry link (view, change dates, leave), the offer link (view, accept, decline). */
export const waitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.waitlist.service;

  app.post(
    '/api/waitlist',
    {
      schema: {
        tags,
        operationId: 'joinWaitlist',
        security: publicRoute,
        summary:
          'Join the waitlist of a school for a range of weekdays (202, the same answer for a new or an existing entry: the link goes by mail); limited per client network like holds (429 HOLD_LIMIT with a proof-of-work challenge)',
        body: waitlistJoinBodySchema,
        response: { 202: envelope(waitlistJoinAnswerSchema), 429: holdLimitedAnswer, ...errorResponses() },
      },
    },
    async (request, reply) => {
      await service().join(request.body, request.ip);
      reply.code(202);
      return ok({ mailed: true as const }, WaitlistMessage.joined);
    },
  );

  app.get(
    '/api/waitlist/entry/:token',
    {
      schema: {
        tags,
        operationId: 'getWaitlistEntry',
        security: publicRoute,
        summary: 'The waitlist entry its link opens: its days, state, place and live offer (404 unknown, 429 after too many unknown links)',
        params: waitlistTokenParamSchema,
        response: { 200: entryAnswer, ...errorResponses(404, 429) },
      },
    },
    async (request) => ok(await service().viewEntry(request.params.token, request.ip), 'Waitlist entry'),
  );

  app.put(
    '/api/waitlist/entry/:token',
    {
      schema: {
        tags,
        operationId: 'updateWaitlistEntry',
        security: publicRoute,
        summary: 'Change the days of a waiting entry (its place stays; 409 once offered or ended)',
        params: waitlistTokenParamSchema,
        body: waitlistUpdateBodySchema,
        response: { 200: entryAnswer, ...errorResponses(404, 409, 429) },
      },
    },
    async (request) => ok(await service().updateEntry(request.params.token, request.body, request.ip), 'Waitlist entry updated'),
  );

  app.post(
    '/api/waitlist/entry/:token/leave',
    {
      schema: {
        tags,
        operationId: 'leaveWaitlist',
        security: publicRoute,
        summary: 'Leave the waitlist (a live offer ends and its slot passes on)',
        params: waitlistTokenParamSchema,
        response: { 200: entryAnswer, ...errorResponses(404, 429) },
      },
    },
    async (request) => ok(await service().leave(request.params.token, request.ip), 'Left the waitlist'),
  );

  app.post(
    '/api/waitlist/entry/:token/confirm',
    {
      schema: {
        tags,
        operationId: 'confirmWaitlistEntry',
        security: publicRoute,
        summary:
          "Confirm a request from the link its mail sent: it joins the list at the back (409 WAITLIST_NOT_PENDING when it is not waiting for its confirmation or a day has passed, WAITLIST_ALREADY_ON when this email or phone is on the school's list; 429 when the network that asked holds its live places)",
        params: waitlistTokenParamSchema,
        response: { 200: entryAnswer, ...errorResponses(404, 409, 429) },
      },
    },
    async (request) => ok(await service().confirm(request.params.token, request.ip), 'On the waitlist'),
  );

  app.post(
    '/api/waitlist/entry/:token/not-me',
    {
      schema: {
        tags,
        operationId: 'disownWaitlistEntry',
        security: publicRoute,
        summary:
          "\"This wasn't me\": the unconfirmed request ends, its details are erased, and its email cannot be put on any list for 30 days (409 WAITLIST_NOT_PENDING once confirmed or ended)",
        params: waitlistTokenParamSchema,
        response: { 200: envelope(waitlistDisownSchema), ...errorResponses(404, 409, 429) },
      },
    },
    async (request) => ok(await service().disown(request.params.token, request.ip), 'Request ended; this address is blocked from joining for 30 days'),
  );

  app.get(
    '/api/waitlist/offer/:token',
    {
      schema: {
        tags,
        operationId: 'getWaitlistOffer',
        security: publicRoute,
        summary: 'The offer its link opens: state, school, slot, fee, window and the visitor details to pay with',
        params: waitlistTokenParamSchema,
        response: { 200: envelope(waitlistOfferViewSchema), ...errorResponses(404, 429) },
      },
    },
    async (request) => ok(await service().viewOffer(request.params.token, request.ip), 'Waitlist offer'),
  );

  app.post(
    '/api/waitlist/offer/:token/accept',
    {
      schema: {
        tags,
        operationId: 'acceptWaitlistOffer',
        security: publicRoute,
        summary: "The slot's hold token of a live offer: pay with it as after a reserve (409 when the offer is not live)",
        params: waitlistTokenParamSchema,
        response: { 200: envelope(waitlistAcceptSchema), ...errorResponses(404, 409, 429) },
      },
    },
    async (request) => ok(await service().accept(request.params.token, request.ip), 'Offer accepted: pay to book'),
  );

  app.post(
    '/api/waitlist/offer/:token/decline',
    {
      schema: {
        tags,
        operationId: 'declineWaitlistOffer',
        security: publicRoute,
        summary: 'Decline an offer: the slot passes to the next in line at once (409 when the offer is not live)',
        params: waitlistTokenParamSchema,
        response: { 200: envelope(waitlistDeclineSchema), ...errorResponses(404, 409, 429) },
      },
    },
    async (request) => {
      await service().decline(request.params.token, request.ip);
      return ok({ state: 'declined' as const }, 'Offer declined');
    },
  );
};

/** The staff's side: the list per school, move up or down and remove (each with a reason, audited), the dashboard counts. */
export const staffWaitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.waitlist.service;
  const list = async (school?: string) => ({ entries: await service().staffList(school) });

  app.get(
    '/staff/waitlist',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'listStaffWaitlist',
        summary: 'Waitlist entries (of one school, or all): live ones in order, then those ended in the last 30 days, with their offers',
        security: bearerSecurity,
        querystring: staffWaitlistQuerySchema,
        response: { 200: envelope(staffWaitlistSchema), ...errorResponses(401) },
      },
    },
    async (request) => {
      const answer = await list(request.query.school);
      return ok(answer, `${answer.entries.length} entr${answer.entries.length === 1 ? 'y' : 'ies'}`);
    },
  );

  app.get(
    '/staff/waitlist/summary',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'staffWaitlistSummary',
        summary: 'Dashboard counts: entries waiting now, offers live, slots filled from the list this week (since Monday, GMT+8)',
        security: bearerSecurity,
        response: { 200: envelope(staffWaitlistSummarySchema), ...errorResponses(401) },
      },
    },
    async () => ok(await service().summary(), 'Waitlist summary'),
  );

  app.post(
    '/staff/waitlist/:id/move',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'moveStaffWaitlistEntry',
        summary: "Move a live entry up or down one place in its school's list (with a reason; audited)",
        security: bearerSecurity,
        params: waitlistIdParamSchema,
        body: waitlistMoveBodySchema,
        response: { 200: envelope(staffWaitlistSchema), ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => {
      const school = await service().move(request.params.id, request.body.direction, request.body.reason, auditBy(request.staff!, request.ip));
      return ok(await list(school), 'Entry moved');
    },
  );

  app.post(
    '/staff/waitlist/:id/remove',
    {
      onRequest: app.requireStaff,
      schema: {
        tags,
        operationId: 'removeStaffWaitlistEntry',
        summary: 'Take a live entry off the list (with a reason; audited); its live offer ends and the slot passes on',
        security: bearerSecurity,
        params: waitlistIdParamSchema,
        body: waitlistRemoveBodySchema,
        response: { 200: envelope(staffWaitlistSchema), ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => {
      const school = await service().remove(request.params.id, request.body.reason, auditBy(request.staff!, request.ip));
      return ok(await list(school), 'Entry removed');
    },
  );
};
