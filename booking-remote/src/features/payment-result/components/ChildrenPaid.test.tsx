// Issue 37: the receipt of a checkout of several children lists each child with what was paid for them.
import { act, screen, within } from '@testing-library/react';
import { brand, type BookedChild } from 'shared-api';
import { activateLocale } from 'shared-ui';
import { renderApp } from '../../../test/render';
import { ChildrenPaid } from './ChildrenPaid';

const [primary, secondary] = brand.schools;

const child = (overrides: Partial<BookedChild> & Pick<BookedChild, 'position' | 'childName'>): BookedChild => ({
  childYear: 'Year 1',
  selectedSchool: primary.name,
  feeSen: 5000,
  discountSen: 0,
  amountSen: 5000,
  cancelled: false,
  refundSen: null,
  ...overrides,
});

const twoChildren = [
  child({ position: 1, childName: 'Adam Firdaus' }),
  child({ position: 2, childName: 'Siti Hajar', childYear: 'Form 1', selectedSchool: secondary.name, feeSen: 7500, discountSen: 750, amountSen: 6750 }),
];

afterEach(async () => {
  await act(() => activateLocale('en'));
});

test('each child on its own line: name, year, school and what was paid, the second with its sibling discount', () => {
  renderApp(<ChildrenPaid children={twoChildren} />);
  const list = screen.getByLabelText('Children');
  expect(within(list).getByText('Child 1').nextElementSibling).toHaveTextContent(`Adam Firdaus, Year 1, ${primary.name}: RM 50`);
  expect(within(list).getByText('Child 2').nextElementSibling).toHaveTextContent(
    `Siti Hajar, Form 1, ${secondary.name}: RM 75 less RM 7.50 sibling discount = RM 67.50`,
  );
});

test('a child cancelled since is marked so', () => {
  renderApp(<ChildrenPaid children={[twoChildren[0], { ...twoChildren[1], cancelled: true, refundSen: 6750 }]} />);
  expect(screen.getByText('Child 2').nextElementSibling).toHaveTextContent(/= RM 67.50 \(cancelled\)$/);
  expect(screen.getByText('Child 1').nextElementSibling).not.toHaveTextContent('cancelled');
});

test('in Malay: "Anak 2" and "diskaun adik-beradik"', async () => {
  await act(() => activateLocale('ms'));
  renderApp(<ChildrenPaid children={twoChildren} />);
  const list = await screen.findByLabelText('Anak-anak');
  expect(within(list).getByText('Anak 2').nextElementSibling).toHaveTextContent(/Tingkatan 1, .*: RM75 tolak diskaun adik-beradik RM7\.50 = RM67\.50$/);
});

test('a child staff moved alone to another time has that time said beside them (GMT+8), in Chinese too', async () => {
  const moved = [twoChildren[0], { ...twoChildren[1], time: { date: '2026-12-03', startTime: '10:00', endTime: '10:30' } }];
  renderApp(<ChildrenPaid children={moved} />);
  expect(screen.getByText('Child 2').nextElementSibling).toHaveTextContent(/= RM 67\.50at another time: Thursday,? 3 December 2026, 10:00 AM – 10:30 AM \(GMT\+8\)$/);
  expect(screen.getByText('Child 1').nextElementSibling).not.toHaveTextContent('another time');
  await act(() => activateLocale('zh'));
  expect(screen.getByText('孩子 2').nextElementSibling).toHaveTextContent('另一时间：');
});
