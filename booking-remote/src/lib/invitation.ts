/**
 * shared-api's calendar builders (.ics, Google Calendar link, the visit's place), a chunk of their own fetched when a
 * receipt or the manage page shows: they read the schools' addresses, which stay off the public page's first load.
 */
export const loadInvitationBuilder = () => import(/* webpackChunkName: "invitation" */ 'shared-api/calendar');
