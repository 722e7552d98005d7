import { brand, formatRM, schoolName } from 'shared-api';
import { media, styled, useCatalog, type DefaultTheme } from 'shared-ui';
import { timetableCatalog } from '../i18n';

const Box = styled.section`
  padding: ${({ theme }) => `${theme.space[3]} ${theme.space[4]}`};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surfaceMuted};
  h2 {
    margin: 0 0 ${({ theme }) => theme.space[2]};
    font-size: ${({ theme }) => theme.fontSizes.sm};
    color: ${({ theme }) => theme.colors.textMuted};
  }
  ul {
    margin: 0;
    padding: 0;
    list-style: none;
    display: flex;
    flex-direction: column;
    gap: ${({ theme }) => theme.space[1]};
  }
  /* Phone: one school a line, the fee at its end. Desktop: the three in a row, each fee beside its school. */
  li {
    display: flex;
    justify-content: space-between;
    gap: ${({ theme }) => theme.space[3]};
  }
  ${media.desktop`
    ul { flex-direction: row; flex-wrap: wrap; column-gap: ${({ theme }: { theme: DefaultTheme }) => theme.space[7]}; }
  `}
  strong {
    white-space: nowrap;
  }
`;

/**
 * Each school's assessment fee before a slot is tapped. From brand.config.json, the file the server prices from, and
 * already on the first load (the dialog's fallback fees): no request and no bytes beyond these lines.
 */
export function SchoolFees() {
  const { t, locale } = useCatalog(timetableCatalog);
  return (
    <Box aria-labelledby="school-fees-title">
      <h2 id="school-fees-title">{t('feesTitle')}</h2>
      <ul>
        {brand.schools.map((school) => (
          <li key={school.name}>
            <span>{schoolName(school.name, locale)}</span>
            <strong>{formatRM(school.feeSen, locale)}</strong>
          </li>
        ))}
      </ul>
    </Box>
  );
}
