import { api, PUBLIC_TIMETABLE_LIST_PATH, SlotListError, type Envelope, type Health } from 'shared-api';
import { normaliseSlotList, totalPagesOf, type RawSlot } from '../../../lib/slot-list/normaliseSlotList';

export type SlotListResult = { slots: RawSlot[]; fetchedAt: number };

/** How often the open timetable refreshes itself, so a slot taken elsewhere disappears. */
export const TIMETABLE_POLL_MS = 30_000;

export const timetableApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Page 1 of 100 carries pagination.total too, so the spec's limit-1 probe would only add a round trip; the other
    // pages (more than 100 bookable slots) are read at once after it. The shell's HTML preloads exactly page 1's URL for
    // `/`, so on first load that answer is usually there already.
    getPublicSlots: build.query<SlotListResult, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const result = await baseQuery(PUBLIC_TIMETABLE_LIST_PATH);
        if (result.error) return { error: result.error };
        // The reader of further pages is its own chunk: a timetable of 100 slots or fewer (one page) never loads it.
        if (totalPagesOf(result.data) > 1) return (await import('../../../lib/slot-list/allPages')).readAllPages(result.data, baseQuery);
        const slots = normaliseSlotList(result.data);
        if (!slots) return { error: { status: 'CUSTOM_ERROR', error: SlotListError.invalidData, data: result.data } };
        return { data: { slots, fetchedAt: Date.now() } };
      },
      providesTags: ['PublicSlots'],
    }),
    getHealth: build.query<Health, void>({
      query: () => '/health',
      transformResponse: (body: Envelope<Health>) => body.data,
      providesTags: ['Health'],
    }),
  }),
});

export const { useGetPublicSlotsQuery, useGetHealthQuery } = timetableApi;
