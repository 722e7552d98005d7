import { act, screen } from '@testing-library/react';
import { brand } from 'shared-api';
import { schoolDetails } from 'shared-api/schools';
import { activateLocale } from 'shared-ui';
import { renderApp } from '../../test/render';
import { SeenTogether } from './SeenTogether';

// Issue 37: a booking has one place, the first child's school's; children at schools with other addresses are told so.
afterEach(() => act(() => activateLocale('en')));

const [primary, secondary] = brand.schools.map((school) => school.name);

it("names the first child's school and address when the children's schools are at different addresses", () => {
  renderApp(<SeenTogether schools={[secondary, primary]} />);
  expect(screen.getByText(new RegExp(`^All your children are seen together at .*${schoolDetails(secondary)!.address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))).toBeInTheDocument();
});

it('says nothing when every child applies at the same address', () => {
  const { container } = renderApp(<SeenTogether schools={[primary, primary]} />);
  expect(container).not.toHaveTextContent('seen together');
});

it('speaks Bahasa Melayu', async () => {
  await act(() => activateLocale('ms'));
  renderApp(<SeenTogether schools={[primary, secondary]} />);
  expect(await screen.findByText(/^Semua anak anda dilihat bersama di /)).toBeInTheDocument();
});
