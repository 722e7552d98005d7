import { act, screen, within } from '@testing-library/react';
import { brand } from 'shared-api';
import { schoolDetails } from 'shared-api/schools';
import { activateLocale } from 'shared-ui';
import ManageBookingPage from '../../pages/ManageBookingPage';
import PaymentSuccessPage from '../../pages/PaymentSuccessPage';
import ThankYouPage from '../../pages/ThankYouPage';
import { axe } from '../../test/axe';
import { MANAGE_TOKEN, paymentStatusResult } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { startMswServer } from '../../test/server';
import { SchoolPlaceRows } from './SchoolPlaceRows';

// Issue 24: wherever a page names the visit's school it says where the school is (brand.config.json's schoolDetails):
// the address with a map link and the school office's phone, in the page's language.
startMswServer();
afterEach(() => act(() => activateLocale('en')));

const secondary = brand.schools[1].name;
const place = schoolDetails(secondary)!;

const inList = (school: string) =>
  renderApp(
    <dl>
      <dt>School</dt>
      <dd>{school}</dd>
      <SchoolPlaceRows school={school} />
    </dl>,
  );

describe('the place of a visit', () => {
  it('gives the address, a map link that opens apart from the page, and the phone as a tel: link', async () => {
    const { container } = inList(secondary);
    expect(screen.getByText('Address').nextElementSibling).toHaveTextContent(place.address);
    const map = screen.getByRole('link', { name: 'Open in Maps' });
    expect(map).toHaveAttribute('href', place.mapUrl);
    expect(map).toHaveAttribute('target', '_blank');
    expect(map).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByText('School phone')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '03-2094 7300' })).toHaveAttribute('href', 'tel:+60320947300');
    expect(await axe(container)).toHaveNoViolations();
  });

  it.each([
    ['ms', 'Alamat', 'Buka dalam peta', 'Telefon sekolah'],
    ['zh', '地址', '在地图中打开', '学校电话'],
  ] as const)('speaks %s', async (locale, address, map, phone) => {
    await act(() => activateLocale(locale));
    inList(secondary);
    expect(await screen.findByText(address)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: map })).toHaveAttribute('href', place.mapUrl);
    expect(screen.getByText(phone)).toBeInTheDocument();
  });

  it('says nothing for a school the group does not have (a direct booking typed by staff)', () => {
    inList('Another School');
    expect(screen.queryByText('Address')).not.toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('is on the thank-you page under the school', () => {
    const { payment, booking } = paymentStatusResult('completed');
    renderApp(<ThankYouPage />, { route: { pathname: '/thankyou', state: { emailStatus: 'sent', payment, booking } }, path: '/thankyou' });
    const details = screen.getByText('School').closest('dl')!;
    expect(within(details).getByText(place.address)).toBeInTheDocument();
    expect(within(details).getByRole('link', { name: '03-2094 7300' })).toBeInTheDocument();
  });

  it('is on the success page under the school', async () => {
    renderApp(<PaymentSuccessPage />, { route: '/payment/success?reference=BK-2026-0001', path: '/payment/success' });
    const address = await screen.findByText(place.address);
    expect(within(address.closest('dl')!).getByRole('link', { name: '03-2094 7300' })).toHaveAttribute('href', 'tel:+60320947300');
  });

  it('is on the manage page under the school', async () => {
    renderApp(<ManageBookingPage />, { route: `/booking/manage/${MANAGE_TOKEN}`, path: '/booking/manage/:token' });
    const address = await screen.findByText(place.address);
    expect(within(address.closest('dl')!).getByRole('link', { name: 'Open in Maps' })).toHaveAttribute('href', place.mapUrl);
  });
});
