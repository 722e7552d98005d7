import { render } from '@testing-library/react';
import styled from 'styled-components';
import { AppThemeProvider } from './AppThemeProvider';
import { media } from './media';

const injectedCss = () => Array.from(document.querySelectorAll('style'), (s) => s.textContent).join('\n');

describe('media helpers inside styled templates', () => {
  it('wraps rules in the desktop query, written either as a tag or as a bare query', () => {
    const Tagged = styled.div`
      color: black;
      ${media.desktop`width: 321px;`}
    `;
    const Bare = styled.div`
      ${media.desktop} {
        width: 654px;
      }
    `;
    const Themed = styled.div`
      ${media.mobile`padding: ${({ theme }) => theme.space[3]};`}
    `;
    render(
      <AppThemeProvider>
        <Tagged />
        <Bare />
        <Themed />
      </AppThemeProvider>,
    );
    const css = injectedCss().replace(/\s+/g, ' ');
    expect(css).toMatch(/@media \(min-width: 1024px\)\s*\{[^}]*width: ?321px/);
    expect(css).toMatch(/@media \(min-width: 1024px\)\s*\{[^}]*width: ?654px/);
    expect(css).toMatch(/@media \(max-width: 1023\.98px\)\s*\{[^}]*padding: ?12px/);
  });
});
