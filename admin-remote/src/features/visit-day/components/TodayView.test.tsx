import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { addDays, todayInMY } from 'shared-api';
import type { DayVisit } from 'shared-api/visit-day';
import type { StaffDocumentsView } from 'shared-api/documents';
import { addSlot, issueToken, STAFF_EMAIL } from '../../../test/db';
import { API } from '../../../test/handlers';
import { server, setupMswServer } from '../../../test/server';
import { renderAdmin, renderAdminApp } from '../../../test/render';
import { axe } from '../../../test/axe';
import { resetVisitDayDb, visitDayDb } from '../testing/handlers';
import { formatWeekday } from '../../../lib/format';
import { TodayView } from './TodayView';

setupMswServer();
beforeEach(resetVisitDayDb);

// Today in GMT+8 as the view opens on it, whatever the day the test runs on; times are built on it.
const today = () => todayInMY();
const at = (time: string, day = today()) => new Date(`${day}T${time}:00+08:00`).toISOString();

const checklist = (inCount: number, missing: DayVisit['children'][number]['checklist'] extends infer C ? (C extends { missing: infer M } ? M : never) : never) => ({
  required: 4,
  inCount,
  missing,
});

function seedDay() {
  visitDayDb.now = at('09:10');
  visitDayDb.days.set(today(), [
    {
      reference: 'PAY-NINE',
      start: at('09:00'),
      end: at('09:30'),
      visitorName: 'Nur Aina',
      visitorContactNo: '0123456789',
      paid: true,
      children: [{ position: 1, name: 'Adam Firdaus', school: 'Seri Ilmu Private Primary', checklist: checklist(4, []) }],
      attendance: null,
    },
    {
      reference: 'PAY-TEN',
      start: at('10:00'),
      end: at('10:30'),
      visitorName: 'Tan Mei Ling',
      visitorContactNo: '03-7726 4100',
      paid: true,
      children: [
        { position: 1, name: 'Tan Jia Yi', school: 'Seri Ilmu Private Primary', checklist: checklist(2, ['immunisation', 'academicRecords']) },
        { position: 2, name: 'Tan Jia Hao', school: 'Seri Ilmu International', checklist: checklist(0, ['guardianId', 'birthCertificate', 'immunisation', 'academicRecords']) },
      ],
      attendance: null,
    },
    {
      reference: 'STAFF-1',
      start: at('11:00'),
      end: at('11:30'),
      visitorName: 'Lim Wei Jie',
      visitorContactNo: '',
      paid: false,
      children: [{ position: 1, name: 'Lim Jun Hao', school: 'Seri Ilmu International', checklist: null }],
      // Marked six minutes ago: too late to undo.
      attendance: { state: 'arrived', at: at('09:04'), by: 'desk@seriilmu.edu.my', undoableUntil: at('09:09') },
    },
  ]);
}

async function openView() {
  Cookies.set('token', issueToken(), { path: '/' });
  const user = userEvent.setup();
  const view = renderAdmin(<TodayView />);
  const region = await screen.findByRole('region', { name: 'Visits of the day' });
  return { user, view, region };
}
const visitItems = async (region: HTMLElement) => within(await within(region).findByRole('list', { name: /^Visits on/ })).getAllByRole('listitem').filter((li) => li.parentElement?.getAttribute('aria-label')?.startsWith('Visits on'));

describe("Today view: the day's visits, their documents, Arrived and No-show", () => {
  it("lists today's visits in order with each child's documents; No-show waits for the start, with the reason said", async () => {
    seedDay();
    const { view, region } = await openView();
    const items = await visitItems(region);
    expect(items).toHaveLength(3);
    expect(within(region).getByText(/^3 visits on /)).toBeInTheDocument();

    const [nine, ten, eleven] = items;
    expect(within(nine).getByText('9:00 AM – 9:30 AM')).toBeInTheDocument();
    expect(within(nine).getByText('All documents in')).toBeInTheDocument();
    expect(within(nine).getByRole('link', { name: 'Call Nur Aina on 012-345 6789' })).toHaveAttribute('href', 'tel:+60123456789');
    expect(within(nine).getByRole('button', { name: 'Mark Adam Firdaus no-show' })).toBeEnabled();

    expect(within(ten).getByText('2 of 4 in')).toBeInTheDocument();
    expect(within(ten).getByText('Missing: Immunization records, Previous academic records')).toBeInTheDocument();
    expect(within(ten).getByText('0 of 4 in')).toBeInTheDocument();
    const noShow = within(ten).getByRole('button', { name: 'Mark Tan Jia Yi, Tan Jia Hao no-show' });
    expect(noShow).toBeDisabled();
    expect(noShow).toHaveAccessibleDescription("No-show can be marked from 10:00 AM, the visit's start.");
    expect(within(ten).getByRole('button', { name: 'Mark Tan Jia Yi, Tan Jia Hao arrived' })).toBeEnabled();

    // A staff booking: no documents online, its papers are checked at the desk; marked too long ago to undo.
    expect(within(eleven).getByText('Booked by staff: no documents uploaded ahead. Check the papers at the desk.')).toBeInTheDocument();
    expect(within(eleven).getByText('Arrived')).toBeInTheDocument();
    expect(within(eleven).getByText('Arrived at 9:04 AM · marked by desk@seriilmu.edu.my')).toBeInTheDocument();
    expect(within(eleven).queryByRole('button', { name: /Undo/ })).not.toBeInTheDocument();
    expect(visitDayDb.requests).toContain(`GET ${today()}`);
    expect(await axe(view.container)).toHaveNoViolations();
  });

  it('marks a visit Arrived, offers Undo for 5 minutes, and Undo puts the buttons back', async () => {
    seedDay();
    const { user, region } = await openView();
    const [nine] = await visitItems(region);
    await user.click(within(nine).getByRole('button', { name: 'Mark Adam Firdaus arrived' }));
    expect(await screen.findByText('Adam Firdaus marked arrived.')).toBeInTheDocument();
    expect(visitDayDb.requests).toContain('POST PAY-NINE arrived');
    const [marked] = await visitItems(region);
    expect(await within(marked).findByText(`Arrived at 9:10 AM · marked by ${STAFF_EMAIL}`)).toBeInTheDocument();
    expect(within(marked).getByText('You can undo until 9:15 AM.')).toBeInTheDocument();

    await user.click(within(marked).getByRole('button', { name: 'Undo the mark of Adam Firdaus' }));
    expect(await screen.findByText('Mark of Adam Firdaus undone.')).toBeInTheDocument();
    const [again] = await visitItems(region);
    expect(await within(again).findByRole('button', { name: 'Mark Adam Firdaus arrived' })).toBeInTheDocument();
  });

  it("marks No-show after the start, and says the server's refusal in its words", async () => {
    seedDay();
    const { user, region } = await openView();
    const [nine] = await visitItems(region);
    server.use(
      http.post(`${API}/staff/visits/:reference/attendance`, () =>
        HttpResponse.json({ success: false, data: null, message: 'This visit is already marked. Undo that mark first.', error: 'ATTENDANCE_ALREADY_MARKED' }, { status: 409 }),
        { once: true },
      ),
    );
    await user.click(within(nine).getByRole('button', { name: 'Mark Adam Firdaus no-show' }));
    expect(await screen.findByText('This visit is already marked. Undo that mark first.')).toBeInTheDocument();
    await user.click(within(nine).getByRole('button', { name: 'Mark Adam Firdaus no-show' }));
    expect(await screen.findByText('Adam Firdaus marked no-show.')).toBeInTheDocument();
    const [marked] = await visitItems(region);
    expect(await within(marked).findByText(`No-show, marked at 9:10 AM by ${STAFF_EMAIL}`)).toBeInTheDocument();
  });

  it("picks another day of the week, and says when a day has no visits and what to do", async () => {
    seedDay();
    const { user, region } = await openView();
    await visitItems(region);
    const days = within(region).getByRole('group', { name: 'Day' });
    expect(within(days).getByRole('button', { name: /^Today, / })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(days).getByRole('button', { name: 'Next week' }));
    const nextWeek = addDays(today(), 7);
    await waitFor(() => expect(visitDayDb.requests).toContain(`GET ${nextWeek}`));
    expect(await within(region).findByText(/^No visits on /)).toBeInTheDocument();
    expect(within(region).getByText('Pick another day above, or switch to Booked below to see every booking.')).toBeInTheDocument();
  });

  it("offers no mark before the visit's day, and says when it can be marked", async () => {
    seedDay();
    const tomorrow = addDays(today(), 1);
    visitDayDb.days.set(tomorrow, [{ ...visitDayDb.days.get(today())![0], reference: 'PAY-TOMORROW', start: at('09:00', tomorrow), end: at('09:30', tomorrow) }]);
    const { user, region } = await openView();
    await visitItems(region);
    await user.click(within(region).getByRole('button', { name: formatWeekday(tomorrow) }));
    const [visit] = await visitItems(region);
    const arrived = within(visit).getByRole('button', { name: 'Mark Adam Firdaus arrived' });
    expect(arrived).toBeDisabled();
    expect(arrived).toHaveAccessibleDescription(/^Arrived and No-show can be marked on the visit's day, /);
    expect(within(visit).getByRole('button', { name: 'Mark Adam Firdaus no-show' })).toBeDisabled();
  });

  it("opens a child's documents: downloads a file, marks one seen on paper", async () => {
    seedDay();
    const created = jest.fn(() => 'blob:file');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: jest.fn() });
    const view: StaffDocumentsView = {
      reference: 'PAY-TEN',
      registrationForm: { url: 'https://example.com/form', doneAt: null },
      limits: { maxFileBytes: 10485760, maxBookingBytes: 41943040 },
      editable: false,
      children: [
        {
          position: 1,
          name: 'Tan Jia Yi',
          items: [
            { kind: 'guardianId', state: 'uploaded', file: { id: '11111111-1111-4111-8111-111111111111', name: 'ic.pdf', type: 'application/pdf', sizeBytes: 358400, uploadedAt: at('08:00'), uploadedBy: 'parent' }, staffMark: null, markedBy: null, markedAt: null },
            { kind: 'birthCertificate', state: 'uploaded', file: { id: '22222222-2222-4222-8222-222222222222', name: 'birth.jpg', type: 'image/jpeg', sizeBytes: 2048, uploadedAt: at('08:05'), uploadedBy: 'parent' }, staffMark: 'checked', markedBy: 'desk@seriilmu.edu.my', markedAt: at('09:00') },
            { kind: 'immunisation', state: 'toBring', file: null, staffMark: null, markedBy: null, markedAt: null },
            { kind: 'academicRecords', state: 'toBring', file: null, staffMark: null, markedBy: null, markedAt: null },
          ],
        },
      ],
    };
    visitDayDb.documents.set('PAY-TEN', view);
    const { user, region } = await openView();
    const [, ten] = await visitItems(region);
    await user.click(within(ten).getByRole('button', { name: 'Documents of Tan Jia Yi' }));
    const dialog = await screen.findByRole('dialog', { name: 'Documents of Tan Jia Yi' });
    await user.click(await within(dialog).findByRole('button', { name: 'Download ic.pdf (350 KB)' }));
    await waitFor(() => expect(visitDayDb.requests).toContain('download 11111111-1111-4111-8111-111111111111'));
    await waitFor(() => expect(created).toHaveBeenCalled());
    expect(within(dialog).getByText(/^Checked by desk@seriilmu.edu.my/)).toBeInTheDocument();

    const immunisation = within(dialog).getByRole('group', { name: 'Immunization records: staff mark' });
    // Nothing uploaded: only the paper can be seen.
    expect(within(immunisation).queryByRole('button', { name: 'Checked' })).not.toBeInTheDocument();
    await user.click(within(immunisation).getByRole('button', { name: 'Seen on paper' }));
    expect(await screen.findByText('Immunization records: Seen on paper.')).toBeInTheDocument();
    expect(visitDayDb.requests).toContain('mark PAY-TEN 1 immunisation seenOnPaper');
    expect(await within(immunisation).findByRole('button', { name: 'Seen on paper' })).toHaveAttribute('aria-pressed', 'true');
    expect(await axe(document.body)).toHaveNoViolations();
  });

  it('says when the visits could not be loaded, and Retry asks again', async () => {
    seedDay();
    server.use(
      http.get(`${API}/staff/visits/day`, () => HttpResponse.json({ success: false, data: null, message: 'Database down', error: 'INTERNAL' }, { status: 500 }), { once: true }),
    );
    const { user, region } = await openView();
    expect(await within(region).findByText('Could not load the visits.')).toBeInTheDocument();
    await user.click(within(region).getByRole('button', { name: 'Retry' }));
    expect(await visitItems(region)).toHaveLength(3);
  });

  it("is on the dashboard, and a mark shows in the Booked list's Attendance column", async () => {
    seedDay();
    addSlot({ date: today(), startTime: '09:00', endTime: '09:30', visitorName: 'Nur Aina', visitorEmail: 'aina@example.my', childName: 'Adam Firdaus', bookingReference: 'PAY-NINE' });
    addSlot({ date: today(), startTime: '11:00', endTime: '11:30', visitorName: 'Lim Wei Jie', visitorEmail: 'lim@example.my', childName: 'Lim Jun Hao', bookingReference: 'STAFF-1' });
    Cookies.set('token', issueToken(), { path: '/' });
    const user = userEvent.setup();
    renderAdminApp('/secured/dashboard');
    const region = await screen.findByRole('region', { name: 'Visits of the day' });
    const [nine] = await visitItems(region);
    await user.click(within(nine).getByRole('button', { name: 'Mark Adam Firdaus arrived' }));
    await user.click(screen.getByRole('button', { name: 'Booked' }));
    const table = await screen.findByRole('table');
    expect(await within(table).findByRole('columnheader', { name: /Attendance/ })).toBeInTheDocument();
    const rowOf = (name: string) => within(table).getAllByRole('row').find((row) => within(row).queryByText(name) !== null)!;
    await waitFor(() => expect(within(rowOf('Nur Aina')).getByText('Arrived')).toBeInTheDocument());
    expect(within(rowOf('Lim Wei Jie')).getByText('Arrived')).toBeInTheDocument();
  });
});
