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
