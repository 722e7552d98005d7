// The public list arrives in one of three shapes (spec section 3); this is the one place that reads them.

/** A slot as the server may send it; every field is checked by the display filter before use. */
export type RawSlot = {
  id?: unknown;
  date?: unknown;
  startTime?: unknown;
  endTime?: unknown;
  isBooked?: unknown;
  status?: unknown;
  visitorName?: unknown;
  placesLeft?: unknown;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isGrouped = (value: Record<string, unknown>): boolean =>
  Object.values(value).every((week) => isRecord(week) && Object.values(week).every(Array.isArray));

/**
 * The slots of a list answer: a flat array, an object grouped by week then date, or an envelope whose
 * `data` is either of those or `{slots, pagination, filters}`. Null when the body is none of them.
 */
export function normaliseSlotList(body: unknown, depth = 0): RawSlot[] | null {
  let slots: unknown[] | null = null;
  if (Array.isArray(body)) slots = body;
  else if (isRecord(body)) {
    if (Array.isArray(body.slots)) slots = body.slots;
    else if ('data' in body && depth === 0) return normaliseSlotList(body.data, depth + 1);
    else if (isGrouped(body)) {
      slots = Object.values(body).flatMap((week) => Object.values(week as Record<string, unknown[]>).flat());
    }
  }
  if (!slots) return null;
  return slots.filter(isRecord) as RawSlot[];
}

/** Pages read at most (10,000 slots): far past any timetable; a runaway `totalPages` cannot make a page read for ever. */
export const MAX_LIST_PAGES = 100;

/** The legacy answer's page count (`data.pagination.totalPages`), 1 when it names none. */
export function totalPagesOf(body: unknown): number {
  const pages = (body as { data?: { pagination?: { totalPages?: unknown } } } | null)?.data?.pagination?.totalPages;
  return typeof pages === 'number' && Number.isInteger(pages) && pages > 1 ? Math.min(pages, MAX_LIST_PAGES) : 1;
}
