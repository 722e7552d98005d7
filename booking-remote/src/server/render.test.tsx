import { addDays, isWeekend, todayInMY } from 'shared-api';
import { legacyList, publicSlot } from '../test/fixtures';
import { render } from './render';

// More than one page of bookable slots: the server does not render page 1 alone (times would be missing until the page
// read the rest); the shell serves the client page, which reads every page.
it('renders one page of slots, and refuses a list of several pages', async () => {
  let day = addDays(todayInMY(), 3);
  while (isWeekend(day)) day = addDays(day, 1);
  const one = legacyList([publicSlot({ id: 1, date: day, startTime: '10:00' })]);
  expect((await render({ lang: 'en', list: one, now: Date.now() })).html).toContain('10:00 AM');
  const several = { ...one, data: { ...one.data, pagination: { total: 150, page: 1, limit: 100, totalPages: 2 } } };
  await expect(render({ lang: 'en', list: several, now: Date.now() })).rejects.toThrow('more than one page');
});
