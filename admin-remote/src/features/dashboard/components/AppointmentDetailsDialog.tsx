import { media, styled, type DefaultTheme } from 'shared-ui';
import { Dialog } from 'shared-ui/forms';
import { formatRM, type StaffSlot } from 'shared-api';
import { NOT_PROVIDED, formatContactNumber, formatSlotDate, formatSlotTimeRange } from '../utils/format';
import { CopyButton } from './CopyButton';

/* Phones: each label above its value. Desktop: labels in a column beside the values. */
const List = styled.dl`
  display: grid;
  grid-template-columns: 1fr;
  gap: ${({ theme }) => theme.space[1]};
  margin: 0;
  dt {
    font-weight: ${({ theme }) => theme.fontWeights.bold};
    margin-top: ${({ theme }) => theme.space[2]};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  ${media.desktop`
    grid-template-columns: minmax(8rem, max-content) 1fr;
    align-items: center;
    column-gap: ${({ theme }: { theme: DefaultTheme }) => theme.space[4]};
    dt { margin-top: 0; }
  `}
`;

/** `copy` is the text the copy button puts on the clipboard (the raw number for a phone). */
type Row = { label: string; value: string; copy?: string | null };

/** Visitor details of a booked slot; every value is rendered as text, never as markup. */
export function AppointmentDetailsDialog({ slot, onClose }: { slot: StaffSlot | null; onClose: () => void }) {
  const rows: Row[] = slot
    ? [
        { label: 'Slot', value: `#${slot.id} · ${formatSlotDate(slot.date)} · ${formatSlotTimeRange(slot)}` },
        { label: 'Visitor name', value: slot.visitorName ?? NOT_PROVIDED, copy: slot.visitorName },
        { label: 'Email', value: slot.visitorEmail ?? NOT_PROVIDED, copy: slot.visitorEmail },
        {
          label: 'Contact number',
          value: formatContactNumber(slot.visitorContactNo),
          copy: slot.visitorContactNo?.trim() || null,
        },
        { label: 'School', value: slot.selectedSchool ?? NOT_PROVIDED },
        { label: 'Payment reference', value: slot.bookingReference ?? NOT_PROVIDED, copy: slot.bookingReference },
        { label: 'Amount', value: slot.amountSen === null ? NOT_PROVIDED : formatRM(slot.amountSen) },
      ]
    : [];

  return (
    <Dialog
      open={slot !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Appointment Details"
      description="The visitor's details for this booked slot."
    >
      <List>
        {rows.map((row) => (
          <div key={row.label} style={{ display: 'contents' }}>
            <dt>{row.label}</dt>
            <dd>
              {row.value}
              {row.copy ? <CopyButton value={row.copy} label={row.label} /> : null}
            </dd>
          </div>
        ))}
      </List>
    </Dialog>
  );
}
