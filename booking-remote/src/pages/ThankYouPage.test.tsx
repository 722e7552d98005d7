import { screen } from '@testing-library/react';
import { brand } from 'shared-api';
import { axe } from '../test/axe';
import { paymentStatusResult } from '../test/fixtures';
import { renderApp } from '../test/render';
import ThankYouPage, { type ThankYouState } from './ThankYouPage';

const render = (state?: ThankYouState) => renderApp(<ThankYouPage />, { route: { pathname: '/thankyou', state }, path: '/thankyou' });

describe('/thankyou', () => {
  it.each([
    [undefined, 'A confirmation email with your booking details and the list of documents to bring will arrive in your inbox.'],
    ['sent', 'A confirmation email with your booking details and the list of documents to bring will arrive in your inbox.'],
    ['timeout', 'Your booking is confirmed. The confirmation email may be delayed.'],
    [
      'failed',
      'Your booking is confirmed, but we could not send the confirmation email. Please check your email (including the spam folder) or contact the school if nothing arrives within 24 hours.',
    ],
    ['pending', 'Your confirmation email will be sent shortly.'],
  ] as const)('emailStatus %s shows its message', (emailStatus, text) => {
    render(emailStatus ? { emailStatus } : undefined);
    expect(screen.getByRole('heading', { name: 'Your booking is complete!' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(text);
    expect(screen.getByRole('link', { name: /registration form/ })).toHaveAttribute('href', brand.registrationFormUrl);
  });

  it('shows each timeout flag', () => {
    render({ emailStatus: 'timeout', emailTimeouts: { visitorEmailTimeout: true, adminEmailTimeout: true } });
    expect(screen.getByText('Your confirmation email may be delayed.')).toBeInTheDocument();
    expect(screen.getByText('School administrator notification may be delayed.')).toBeInTheDocument();
  });

  it('shows no flag that is not set', () => {
    render({ emailStatus: 'sent', emailTimeouts: { visitorEmailTimeout: false, adminEmailTimeout: true } });
    expect(screen.queryByText('Your confirmation email may be delayed.')).not.toBeInTheDocument();
    expect(screen.getByText('School administrator notification may be delayed.')).toBeInTheDocument();
  });

  it('shows the booking handed over by the flow, and has no axe violations', async () => {
    const { payment, booking } = paymentStatusResult('completed');
    const { container } = render({ emailStatus: 'sent', payment, booking });
    expect(screen.getByText('Thursday 26 November 2026')).toBeInTheDocument();
    expect(screen.getByText('BK-2026-0001')).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });
});
