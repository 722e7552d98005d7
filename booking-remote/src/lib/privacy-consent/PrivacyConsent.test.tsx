import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { privacyNotice } from 'shared-api/privacy';
import { activateLocale } from 'shared-ui';
import { renderApp } from '../../test/render';
import { PrivacyConsent } from './PrivacyConsent';

afterEach(() => act(() => activateLocale('en')));

// Issue 36: each language names the others in its own words ("以English阅读" read as a mistake).
it('in Chinese, the notice in the other languages is offered in Chinese words, and opens in that language', async () => {
  await act(() => activateLocale('zh'));
  renderApp(<PrivacyConsent checked={false} onCheckedChange={() => {}} />);
  expect(await screen.findByRole('button', { name: '阅读英文版' })).toBeInTheDocument();
  await userEvent.setup().click(screen.getByRole('button', { name: '阅读马来文版' }));
  expect(screen.getByRole('region', { name: privacyNotice.texts.ms.title })).toHaveAttribute('lang', 'ms');
  expect(screen.queryByText(/以English/)).not.toBeInTheDocument();
});

// Issue 36: three notice links sat between the consent and the form's Continue; the box now comes last.
it('offers the notice before the consent box, so the box is the last control before the form buttons', () => {
  const { container } = renderApp(
    <form>
      <PrivacyConsent checked={false} onCheckedChange={() => {}} />
      <button type="submit">Continue to Payment</button>
    </form>,
  );
  // In the document's order, as Tab moves.
  const controls = [...container.querySelectorAll('button, input')].map((control) => (control.getAttribute('type') === 'checkbox' ? 'consent' : control.textContent));
  expect(controls.slice(-2)).toEqual(['consent', 'Continue to Payment']);
  expect(controls.indexOf('Read the privacy notice')).toBeLessThan(controls.indexOf('consent'));
});
