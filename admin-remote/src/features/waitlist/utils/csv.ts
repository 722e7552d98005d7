// The waitlist of a school as CSV (built in the browser from the list on screen): the lib's quoting and formula guard.
import type { StaffWaitlistEntry } from 'shared-api/waitlist';
import { csvText, phoneCell } from '../../../lib/csv';
import { formatInstant } from '../../../lib/format';
import { waitlistText } from '../i18n';
import { offerLine, stateText } from './format';

const CSV_COLUMNS = ['csvPlace', 'csvName', 'csvEmail', 'csvPhone', 'csvSchool', 'csvChild', 'csvYear', 'csvFrom', 'csvTo', 'csvPart', 'csvState', 'csvJoined', 'csvOffers'] as const;

export const waitlistCsv = (entries: StaffWaitlistEntry[]): string =>
  csvText(
    CSV_COLUMNS.map((id) => waitlistText(id)),
    entries.map((e) => [
      e.position ?? '',
      e.name,
      e.email,
      phoneCell(e.phone),
      e.school,
      e.childName ?? '',
      e.childYear ?? '',
      e.fromDate,
      e.toDate,
      waitlistText(`part.${e.partOfDay}`),
      stateText(e),
      formatInstant(e.joinedAt),
      e.offers.map(offerLine).join('; '),
    ]),
  );
