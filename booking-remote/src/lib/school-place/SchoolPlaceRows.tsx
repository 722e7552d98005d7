import { schoolDetails, telHref } from 'shared-api/schools';
import { styled, useCatalog } from 'shared-ui';
import { placeCatalog } from './i18n';

// A 44 px tap target (the design's minimum) that takes no more room than its line: the box reaches above and below it,
// so the text stays on its label's line.
const PlaceLink = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: ${({ theme }) => theme.tapTarget};
  margin: -10px 0;
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  text-underline-offset: 0.2em;
  &:focus-visible {
    outline: none;
    box-shadow: ${({ theme }) => theme.focusRing};
  }
`;

// Room under the map link, so its tap target and the phone's below never overlap.
const AddressValue = styled.dd`
  padding-bottom: 12px;
`;

/**
 * The school's address with a map link, and its phone (brand.config.json's schoolDetails), as rows of the `<dl>` that
 * names the school: wherever a page says where the visit is. Nothing for a school the group does not have.
 */
export function SchoolPlaceRows({ school }: { school: string }) {
  const { t } = useCatalog(placeCatalog);
  const place = schoolDetails(school);
  if (!place) return null;
  return (
    <>
      <dt>{t('address')}</dt>
      <AddressValue>
        <span>{place.address}</span>
        <br />
        <PlaceLink href={place.mapUrl} target="_blank" rel="noopener noreferrer">
          {t('openMap')}
        </PlaceLink>
      </AddressValue>
      <dt>{t('schoolPhone')}</dt>
      <dd>
        <PlaceLink href={telHref(place.phone)}>{place.phone}</PlaceLink>
      </dd>
    </>
  );
}
