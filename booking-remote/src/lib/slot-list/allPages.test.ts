import { PUBLIC_TIMETABLE_LIST_PATH } from 'shared-api';
import { allSlots, listPagePath } from './allPages';
import { MAX_LIST_PAGES, totalPagesOf } from './normaliseSlotList';

// The timetable's list in pages of 100: every page is read, each slot once, a bad page makes the whole list bad.
const page = (ids: number[], totalPages: number) => ({ success: true, data: { slots: ids.map((id) => ({ id })), pagination: { total: 0, page: 1, limit: 100, totalPages } } });

it('reads the pages after the first at their own URLs, keeping each slot once', async () => {
  const asked: string[] = [];
  const slots = await allSlots(page([1, 2], 3), async (path) => {
    asked.push(path);
    return path.includes('page=2') ? page([2, 3], 3) : page([4], 3);
  });
  expect(slots?.map((s) => s.id)).toEqual([1, 2, 3, 4]);
  expect(asked.sort()).toEqual([listPagePath(2), listPagePath(3)]);
  expect(listPagePath(1)).toBe(PUBLIC_TIMETABLE_LIST_PATH);
  expect(listPagePath(3)).toBe(PUBLIC_TIMETABLE_LIST_PATH.replace('page=1', 'page=3'));
});

it('one page reads nothing more; a page that is not a list makes the list unreadable; the page count is bounded', async () => {
  const read = jest.fn();
  expect((await allSlots(page([1], 1), read))?.length).toBe(1);
  expect(read).not.toHaveBeenCalled();
  expect(await allSlots(page([1], 2), async () => ({ nonsense: true }))).toBeNull();
  expect([totalPagesOf(page([], 1e9)), totalPagesOf({}), totalPagesOf(page([], 2.5))]).toEqual([MAX_LIST_PAGES, 1, 1]);
});
