import { useLayoutEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { brand, brandTitle, getToken } from 'shared-api';
import { media, styled, useCatalog } from 'shared-ui';
import { remoteForPath } from '../app/remoteForPath';
import { shellCatalog } from '../i18n';
import { LanguageSelect } from './LanguageSelect';

const Bar = styled.header`
  position: sticky;
  top: 0;
  z-index: ${({ theme }) => theme.zIndices.header};
  background: ${({ theme }) => theme.colors.surface};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Inner = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[3]};
  max-width: 1200px;
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space[2]} ${theme.space[4]}`};
  min-height: 56px;
`;

const LogoLink = styled(Link)`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  flex: none;
  width: ${({ theme }) => theme.tapTarget};
  height: ${({ theme }) => theme.tapTarget};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.brand};
  color: ${({ theme }) => theme.colors.onBrand};
  font-weight: ${({ theme }) => theme.fontWeights.bold};
  text-decoration: none;
  &:focus-visible {
    outline: none;
    box-shadow: ${({ theme }) => theme.focusRing};
  }
`;

const Title = styled.span`
  flex: 1;
  min-width: 0;
  font-size: ${({ theme }) => theme.fontSizes.md};
  font-weight: ${({ theme }) => theme.fontWeights.bold};
  color: ${({ theme }) => theme.colors.text};
  ${media.desktop`
    font-size: ${({ theme }) => theme.fontSizes.lg};
  `}
  /* Long titles (Malay) wrap between words; a single word longer than the line may still break. */
  overflow-wrap: break-word;
`;

// Staff reach the login from a desktop; phones (the parents) never see it.
const LoginLink = styled(Link)`
  display: none;
  ${media.desktop`
    display: inline-flex;
    align-items: center;
    min-height: ${({ theme }) => theme.tapTarget};
    padding: 0 ${({ theme }) => theme.space[3]};
    border-radius: ${({ theme }) => theme.radii.md};
    color: ${({ theme }) => theme.colors.brand};
    font-weight: ${({ theme }) => theme.fontWeights.medium};
    text-decoration: none;
    &:hover { background: ${({ theme }) => theme.colors.brandSubtle}; }
    &:focus-visible { outline: none; box-shadow: ${({ theme }) => theme.focusRing}; }
  `}
`;

/** The page frame's header: logo (home), the title text, the language (parents' pages) and the staff Login link on desktop. */
export function Header() {
  // Re-read on every navigation: login and logout both end with one, so the link follows the session.
  const { pathname } = useLocation();
  const { t, locale } = useCatalog(shellCatalog);
  const signedIn = Boolean(getToken());
  const bar = useRef<HTMLElement>(null);
  // What the page scrolls into view (a focused field, a heading it jumps to) stops below this sticky header, not under
  // it (WCAG 2.4.11): the page's scroll padding follows the header's height, which grows when its title wraps.
  useLayoutEffect(() => {
    const header = bar.current;
    if (!header || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => (root.style.scrollPaddingTop = `${header.offsetHeight}px`));
    observer.observe(header);
    return () => {
      observer.disconnect();
      root.style.scrollPaddingTop = '';
    };
  }, []);
  return (
    <Bar ref={bar}>
      <Inner>
        {/* The name starts with what the logo shows (WCAG 2.5.3, label in name): voice users say "click SI". */}
        <LogoLink to="/" aria-label={t('homeLink', { logoText: brand.logoText, productName: brand.productName })}>
          {brand.logoText}
        </LogoLink>
        <Title>{brandTitle(locale)}</Title>
        {/* The staff side is English: its pages offer no language to choose. */}
        {remoteForPath(pathname) === 'booking' && <LanguageSelect />}
        {signedIn ? <LoginLink to="/secured/dashboard">{t('dashboard')}</LoginLink> : <LoginLink to="/login">{t('login')}</LoginLink>}
      </Inner>
    </Bar>
  );
}
