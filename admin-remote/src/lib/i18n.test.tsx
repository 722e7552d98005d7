import { render, screen } from '@testing-library/react';
import { defineCatalog, useCatalog } from 'shared-ui';
import { english, richText, translator } from './i18n';

const en = {
  signedIn: 'Signed in as <strong>{name}</strong>',
  loginFirst: 'Only a logged-in staff member can add a colleague. <link>Log in first</link>.',
  records: '{count, plural, one {{count} record} other {{count} records}}',
};
const catalog = defineCatalog('admin.i18n-test', en, {});

function Sentence({ name }: { name: string }) {
  const { t } = useCatalog(catalog);
  return (
    <p data-testid="sentence">
      {richText(t, 'signedIn', { name }, { strong: (children) => <strong>{children}</strong> })}{' '}
      {richText(t, 'loginFirst', {}, { link: (children) => <a href="/login">{children}</a> })}
    </p>
  );
}

describe("the staff side's message helpers", () => {
  it('renders a whole sentence with its tagged parts as elements', () => {
    render(<Sentence name="cikgu" />);
    expect(screen.getByTestId('sentence')).toHaveTextContent(
      'Signed in as cikgu Only a logged-in staff member can add a colleague. Log in first.',
    );
    expect(screen.getByText('cikgu').tagName).toBe('STRONG');
    expect(screen.getByRole('link', { name: 'Log in first' })).toHaveAttribute('href', '/login');
  });

  it('shows a name that looks like markup as text', () => {
    render(<Sentence name="<link>x</link> & <b>bold</b>" />);
    expect(screen.getByText('<link>x</link> & <b>bold</b>').tagName).toBe('STRONG');
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it('translates outside components, with plurals and counts written as before (no digit grouping)', () => {
    const t = translator(catalog);
    expect(t('records', { count: 1 })).toBe('1 record');
    expect(t('records', { count: 1234 })).toBe('1234 records');
    expect(english(en, 'loginFirst')).toEqual({ loginFirst: en.loginFirst });
  });
});
