import type { BaseQueryFn, FetchArgs, FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { PUBLIC_TIMETABLE_LIST_PATH, SlotListError } from 'shared-api';
import { normaliseSlotList, totalPagesOf, type RawSlot } from './normaliseSlotList';

/** The list call for page `page` (page 1 is PUBLIC_TIMETABLE_LIST_PATH, the URL the shell preloads). */
export const listPagePath = (page: number): string =>
  page === 1 ? PUBLIC_TIMETABLE_LIST_PATH : PUBLIC_TIMETABLE_LIST_PATH.replace('page=1', `page=${page}`);

/**
 * Every bookable slot: page 1's slots and, when it says there are more pages of PUBLIC_PAGE_SIZE, the others read at
 * once. Null when any page is not a slot list (`readPage` rejects when a page cannot be read).
 */
export async function allSlots(first: unknown, readPage: (path: string) => Promise<unknown>): Promise<RawSlot[] | null> {
  const slots = normaliseSlotList(first);
  if (!slots) return null;
  const pages = totalPagesOf(first);
  if (pages === 1) return slots;
  const rest = await Promise.all(Array.from({ length: pages - 1 }, (_, i) => readPage(listPagePath(i + 2))));
  const more = rest.map((body) => normaliseSlotList(body));
  if (more.some((list) => list === null)) return null;
  // A slot may move from one page to the next while they are read (one booked on page 1): each id once.
  const seen = new Set<unknown>();
  return [...slots, ...more.flatMap((list) => list!)].filter((slot) => (slot.id === undefined || !seen.has(slot.id)) && (seen.add(slot.id), true));
}


/** The timetable query's answer when page 1 says there are more: every page, or the first page's error. */
export async function readAllPages(first: unknown, baseQuery: (arg: string | FetchArgs) => ReturnType<BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError>>) {
  let failed: FetchBaseQueryError | undefined;
  const slots = await allSlots(first, async (path) => {
    const page = await baseQuery(path);
    if (page.error) throw (failed = page.error as FetchBaseQueryError);
    return page.data;
  }).catch((error: unknown) => (failed && error === failed ? undefined : Promise.reject(error)));
  if (slots === undefined) return { error: failed! };
  if (!slots) return { error: { status: 'CUSTOM_ERROR' as const, error: SlotListError.invalidData, data: first } };
  return { data: { slots, fetchedAt: Date.now() } };
}
