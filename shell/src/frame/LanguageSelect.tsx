import { LOCALE_NAMES, LOCALES, HTML_LANG, isLocale } from 'shared-api';
import { chooseLocale, media, styled, useCatalog } from 'shared-ui';
import { shellCatalog } from '../i18n';

const Select = styled.select`
  flex: none;
  min-height: ${({ theme }) => theme.tapTarget};
  padding: 0 ${({ theme }) => theme.space[2]};
  border: 1px solid ${({ theme }) => theme.colors.borderStrong};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  font: inherit;
  /*
   * A width of its own, not its longest option's: a page still arriving paints the select before its options, and
   * its growing then moved the header (CLS). Wide enough for "Bahasa Melayu"; on a phone at most ~40% of the header.
   */
  width: 10.5em;
  max-width: 40vw;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  ${media.desktop`
    max-width: none;
    font-size: ${({ theme }) => theme.fontSizes.md};
  `}
  &:focus-visible {
    outline: none;
    box-shadow: ${({ theme }) => theme.focusRing};
  }
`;

/** The parent's language: a native select (every phone has a good picker for it), each language named in itself. */
export function LanguageSelect() {
  const { t, locale } = useCatalog(shellCatalog);
  return (
    <Select
      aria-label={t('language')}
      value={locale}
      onChange={(event) => {
        if (isLocale(event.target.value)) void chooseLocale(event.target.value);
      }}
    >
      {LOCALES.map((code) => (
        <option key={code} value={code} lang={HTML_LANG[code]}>
          {LOCALE_NAMES[code]}
        </option>
      ))}
    </Select>
  );
}
