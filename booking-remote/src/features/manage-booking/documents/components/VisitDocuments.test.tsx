import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { brand, ErrorCode } from 'shared-api';
import { DocumentsErrorCode, DocumentsMessage, type DocumentItem, type DocumentsView } from 'shared-api/documents';
import { privacyNotice } from 'shared-api/privacy';
import { chooseLocale } from 'shared-ui';
import ManageBookingPage from '../../../../pages/ManageBookingPage';
import { axe } from '../../../../test/axe';
import { documentsView, fail, MANAGE_TOKEN, ok } from '../../../../test/fixtures';
import { renderApp } from '../../../../test/render';
import { apiUrl, server, startMswServer } from '../../../../test/server';

startMswServer();
// Node's File (as fetch's FormData takes it): jsdom's own is not a Blob to Node's fetch, where a browser's is to its own.
const fileOf = (parts: (string | Uint8Array)[], name: string, type: string) => new NodeFile(parts, name, { type }) as unknown as File;


// Wednesday 25 November 2026, 10:00 GMT+8; the visit (fixtures) is on Friday 27th at 9:00 AM.
const NOW = new Date('2026-11-25T10:00:00+08:00');
beforeEach(() => jest.useFakeTimers({ now: NOW, advanceTimers: true }));
afterEach(async () => {
  jest.useRealTimers();
  await chooseLocale('en');
});

const render = () => renderApp(<ManageBookingPage />, { route: `/booking/manage/${MANAGE_TOKEN}`, path: '/booking/manage/:token' });
const DOCS = `/api/booking/manage/:token/documents`;

// Tuesday 24 November 2026, 9:05 PM GMT+8.
const UPLOADED_AT = '2026-11-24T13:05:00.000Z';
const file = (name: string, sizeBytes: number, type: 'image/jpeg' | 'application/pdf' = 'image/jpeg') => ({ id: `f-${name}`, name, type, sizeBytes, uploadedAt: UPLOADED_AT });
const withItems = (items: DocumentItem[]): DocumentsView => documentsView({ children: [{ position: 1, name: 'Adam Firdaus', items }] });
const item = (kind: DocumentItem['kind'], state: DocumentItem['state'], f: DocumentItem['file'] = null): DocumentItem => ({ kind, state, file: f, staffMark: null });

/** The documents the server answers with now (changed by the routes below), and what each change received. */
function documentsServer(initial: DocumentsView = documentsView()) {
  const state = { view: initial, puts: [] as { position: string; kind: string; name: string; type: string; size: number }[], deletes: [] as string[], forms: [] as unknown[] };
  server.use(http.get(apiUrl(DOCS), () => HttpResponse.json(ok(state.view))));
  return state;
}
const docRow = (name: string) => screen.getByRole('listitem', { name });
/** The row's hidden file input: what the Upload / Replace button opens (the phone's camera or files). */
const fileInput = (row: HTMLElement) => row.querySelector('input[type="file"]') as HTMLInputElement;

describe('Before your visit (issue 40)', () => {
  it("shows each document's state, the uploaded file's name, size and time in GMT+8, the form and the privacy notice", async () => {
    documentsServer(
      withItems([
        item('guardianId', 'toBring'),
        item('birthCertificate', 'uploaded', file('IMG_20261124_210455_a_very_long_phone_camera_file_name.jpg', 2_516_582)),
        item('immunisation', 'uploaded', file('immunisation.pdf', 350 * 1024, 'application/pdf')),
        item('academicRecords', 'notNeeded'),
      ]),
    );
    const { container } = render();
    const section = await screen.findByRole('region', { name: 'Before your visit' });
    expect(await within(section).findByRole('region', { name: "Adam Firdaus's documents" })).toBeInTheDocument();
    expect(within(docRow('Parent/guardian ID')).getByText('Bring on the day')).toBeInTheDocument();
    const birth = docRow("Student's birth certificate");
    expect(within(birth).getByText('Uploaded')).toBeInTheDocument();
    expect(within(birth).getByText('IMG_20261124_210455_a_very_long_phone_camera_file_name.jpg')).toBeInTheDocument();
    expect(within(birth).getByText('2.4 MB, uploaded 24 Nov, 9:05 PM (GMT+8)')).toBeInTheDocument();
    expect(within(docRow('Immunization records')).getByText('350 KB, uploaded 24 Nov, 9:05 PM (GMT+8)')).toBeInTheDocument();
    const notNeeded = docRow('Previous academic records');
    expect(within(notNeeded).getByText('Not needed')).toBeInTheDocument();
    expect(within(notNeeded).queryByRole('button')).not.toBeInTheDocument();
    // Upload where nothing is in; replace and remove where a file is.
    expect(within(docRow('Parent/guardian ID')).getByRole('button', { name: 'Upload Parent/guardian ID' })).toBeEnabled();
    expect(within(birth).getByRole('button', { name: "Replace Student's birth certificate" })).toBeEnabled();
    expect(within(birth).getByRole('button', { name: "Remove Student's birth certificate" })).toBeEnabled();
    // A photo from the camera or a PDF from the files.
    expect(fileInput(docRow('Parent/guardian ID'))).toHaveAttribute('accept', 'image/jpeg,image/png,application/pdf');
    expect(within(section).getByRole('link', { name: 'Open the registration form' })).toHaveAttribute('href', brand.registrationFormUrl);
    expect(within(section).getByRole('checkbox', { name: 'I have filled in the registration form' })).not.toBeChecked();
    // PDPA: who sees the files, what for, and how long they are kept (the privacy notice's own words).
    const privacy = within(section).getByRole('region', { name: 'Who sees your files' });
    expect(privacy).toHaveTextContent("Only the school's admissions staff see these files");
    expect(privacy).toHaveTextContent(privacyNotice.texts.en.sections.find((s) => s.heading === 'How long we keep it')!.body);
    expect(privacy).toHaveTextContent('7 years after the visit');
    // The plain what-to-bring list gives way to the checklist (each document named once).
    expect(screen.queryByRole('heading', { name: 'What to bring' })).not.toBeInTheDocument();
    expect(screen.getAllByText("Student's birth certificate")).toHaveLength(1);
    expect(await axe(container)).toHaveNoViolations();
  });

  it('an upload sends the file to PUT …/documents/1/birthCertificate and shows it as uploaded', async () => {
    const state = documentsServer();
    server.use(
      http.put(apiUrl(`${DOCS}/:position/:kind`), async ({ request, params }) => {
        const sent = (await request.formData()).get('file') as unknown as File;
        state.puts.push({ position: String(params.position), kind: String(params.kind), name: sent.name, type: sent.type, size: sent.size });
        state.view = withItems(
          state.view.children[0].items.map((i) => (i.kind === params.kind ? item(i.kind, 'uploaded', file(sent.name, 1_200_000)) : i)),
        );
        return HttpResponse.json(ok(state.view, 'Uploaded'));
      }),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render();
    await screen.findByRole('region', { name: "Adam Firdaus's documents" });
    const photo = fileOf([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], 'birth-cert.jpg', 'image/jpeg');
    await user.upload(fileInput(docRow("Student's birth certificate")), photo);
    await waitFor(() => expect(within(docRow("Student's birth certificate")).getByText('birth-cert.jpg')).toBeInTheDocument());
    expect(state.puts).toEqual([{ position: '1', kind: 'birthCertificate', name: 'birth-cert.jpg', type: 'image/jpeg', size: 7 }]);
    expect(within(docRow("Student's birth certificate")).getByText('Uploaded')).toBeInTheDocument();
    expect(within(docRow("Student's birth certificate")).getByRole('button', { name: "Replace Student's birth certificate" })).toBeInTheDocument();
    expect(await screen.findByText("Student's birth certificate uploaded.")).toBeInTheDocument();
    // The others as they were.
    expect(within(docRow('Parent/guardian ID')).getByText('Bring on the day')).toBeInTheDocument();
  });

  it("a refused upload says the server's reason in the page's words and leaves everything else as it was", async () => {
    const uploaded = item('guardianId', 'uploaded', file('ic-front.jpg', 800_000));
    const state = documentsServer(withItems([uploaded, item('birthCertificate', 'toBring'), item('immunisation', 'toBring'), item('academicRecords', 'toBring')]));
    server.use(
      http.put(apiUrl(`${DOCS}/:position/:kind`), () =>
        HttpResponse.json(fail(DocumentsMessage.typeNotAllowed, DocumentsErrorCode.FILE_TYPE_NOT_ALLOWED), { status: 400 }),
      ),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render();
    await screen.findByRole('region', { name: "Adam Firdaus's documents" });
    const fake = fileOf(['MZ not really a pdf'], 'report.pdf', 'application/pdf');
    await user.upload(fileInput(docRow("Student's birth certificate")), fake);
    const row = docRow("Student's birth certificate");
    expect(await within(row).findByRole('alert')).toHaveTextContent('Only JPEG, PNG or PDF files can be uploaded. Please choose a photo or a PDF.');
    expect(within(row).getByText('Bring on the day')).toBeInTheDocument();
    expect(within(docRow('Parent/guardian ID')).getByText('ic-front.jpg')).toBeInTheDocument();
    expect(state.view.children[0].items[0]).toEqual(uploaded);
  });

  it('a file over 10 MB is refused before it is sent; a 429 says to wait', async () => {
    documentsServer();
    let puts = 0;
    server.use(
      http.put(apiUrl(`${DOCS}/:position/:kind`), () => {
        puts += 1;
        return HttpResponse.json(fail(DocumentsMessage.tooManyUploads, ErrorCode.RATE_LIMITED), { status: 429 });
      }),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render();
    await screen.findByRole('region', { name: "Adam Firdaus's documents" });
    const big = fileOf([new Uint8Array(10 * 1024 * 1024 + 1)], 'scan.pdf', 'application/pdf');
    await user.upload(fileInput(docRow('Immunization records')), big);
    expect(await within(docRow('Immunization records')).findByRole('alert')).toHaveTextContent('This file is larger than 10 MB.');
    expect(puts).toBe(0);
    await user.upload(fileInput(docRow('Immunization records')), fileOf(['%PDF-1.4'], 'scan.pdf', 'application/pdf'));
    await waitFor(() => expect(within(docRow('Immunization records')).getByRole('alert')).toHaveTextContent('Too many uploads. Please wait a few minutes and try again.'));
    expect(puts).toBe(1);
  });

  it('remove asks first; Keep file keeps it, Remove file deletes it', async () => {
    const state = documentsServer(withItems([item('guardianId', 'uploaded', file('ic-front.jpg', 800_000)), item('birthCertificate', 'toBring'), item('immunisation', 'toBring'), item('academicRecords', 'toBring')]));
    server.use(
      http.delete(apiUrl(`${DOCS}/:position/:kind`), ({ params }) => {
        state.deletes.push(`${params.position}/${params.kind}`);
        state.view = withItems(state.view.children[0].items.map((i) => (i.kind === params.kind ? item(i.kind, 'toBring') : i)));
        return HttpResponse.json(ok(state.view, 'Removed'));
      }),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render();
    await screen.findByText('ic-front.jpg');
    await user.click(within(docRow('Parent/guardian ID')).getByRole('button', { name: 'Remove Parent/guardian ID' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove this file?' });
    expect(dialog).toHaveTextContent('ic-front.jpg will be deleted from your booking.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep file' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(state.deletes).toEqual([]);
    expect(screen.getByText('ic-front.jpg')).toBeInTheDocument();

    await user.click(within(docRow('Parent/guardian ID')).getByRole('button', { name: 'Remove Parent/guardian ID' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove this file?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove file' }));
    await waitFor(() => expect(screen.queryByText('ic-front.jpg')).not.toBeInTheDocument());
    expect(state.deletes).toEqual(['1/guardianId']);
    expect(within(docRow('Parent/guardian ID')).getByText('Bring on the day')).toBeInTheDocument();
  });

  it('the registration form tick is sent and shown with its time; after the visit began nothing can change', async () => {
    const state = documentsServer();
    server.use(
      http.post(apiUrl('/api/booking/manage/:token/registration-form'), async ({ request }) => {
        const body = (await request.json()) as { done: boolean };
        state.forms.push(body);
        state.view = documentsView({ registrationForm: { url: brand.registrationFormUrl, doneAt: body.done ? '2026-11-25T02:00:00.000Z' : null } });
        return HttpResponse.json(ok(state.view));
      }),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render();
    const box = await screen.findByRole('checkbox', { name: 'I have filled in the registration form' });
    await user.click(box);
    expect(await screen.findByText('Ticked on 25 Nov, 10:00 AM (GMT+8)')).toBeInTheDocument();
    expect(box).toBeChecked();
    expect(state.forms).toEqual([{ done: true }]);
    await user.click(box);
    await waitFor(() => expect(screen.queryByText(/^Ticked on/)).not.toBeInTheDocument());
    expect(box).not.toBeChecked();
    expect(state.forms).toEqual([{ done: true }, { done: false }]);
  });

  it('a refused tick goes back unticked and says why', async () => {
    documentsServer();
    server.use(
      http.post(apiUrl('/api/booking/manage/:token/registration-form'), () =>
        HttpResponse.json(fail(DocumentsMessage.closed, DocumentsErrorCode.DOCUMENTS_CLOSED), { status: 409 }),
      ),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render();
    const box = await screen.findByRole('checkbox', { name: 'I have filled in the registration form' });
    await user.click(box);
    expect(await screen.findByRole('alert')).toHaveTextContent('Documents can no longer be changed online');
    expect(box).not.toBeChecked();
  });

  it('several children: a list per child, each button naming the child', async () => {
    const items = (state: DocumentItem['state']) => (['guardianId', 'birthCertificate', 'immunisation', 'academicRecords'] as const).map((kind) => item(kind, state));
    documentsServer(
      documentsView({
        children: [
          { position: 1, name: 'Adam Firdaus', items: items('toBring') },
          { position: 2, name: 'Siti Hajar', items: items('notNeeded').map((i) => (i.kind === 'guardianId' ? item('guardianId', 'toBring') : i)) },
        ],
      }),
    );
    render();
    const siti = await screen.findByRole('region', { name: "Siti Hajar's documents" });
    expect(within(siti).getAllByRole('button')).toHaveLength(1);
    expect(within(siti).getByRole('button', { name: 'Upload Parent/guardian ID for Siti Hajar' })).toBeEnabled();
    expect(within(siti).getAllByText('Not needed')).toHaveLength(3);
    const adam = screen.getByRole('region', { name: "Adam Firdaus's documents" });
    expect(within(adam).getAllByRole('button', { name: / for Adam Firdaus$/ })).toHaveLength(4);
  });

  it('once the visit has started the page says so and offers no upload, replace, remove or tick', async () => {
    documentsServer(documentsView({ editable: false }));
    render();
    expect(await screen.findByText(/The visit has started, so documents can no longer be changed here/)).toBeInTheDocument();
    const section = screen.getByRole('region', { name: 'Before your visit' });
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
    expect(within(section).getByRole('checkbox')).toBeDisabled();
  });

  it('speaks Malay: the states, the buttons, a refusal and the privacy notice', async () => {
    await chooseLocale('ms');
    documentsServer(withItems([item('guardianId', 'uploaded', file('ic.jpg', 2_000)), item('birthCertificate', 'toBring'), item('immunisation', 'notNeeded'), item('academicRecords', 'toBring')]));
    server.use(
      http.put(apiUrl(`${DOCS}/:position/:kind`), () => HttpResponse.json(fail(DocumentsMessage.unreadable, DocumentsErrorCode.FILE_UNREADABLE), { status: 400 })),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    const { container } = render();
    const section = await screen.findByRole('region', { name: 'Sebelum lawatan anda' });
    expect(await within(section).findByRole('region', { name: 'Dokumen Adam Firdaus' })).toBeInTheDocument();
    expect(within(section).getByText('Sudah dimuat naik')).toBeInTheDocument();
    expect(within(section).getAllByText('Bawa pada hari lawatan')).toHaveLength(2);
    expect(within(section).getByText('Tidak diperlukan')).toBeInTheDocument();
    expect(within(section).getByText('2 KB, dimuat naik 24 Nov, 9:05 malam (GMT+8)')).toBeInTheDocument();
    expect(within(section).getByRole('checkbox', { name: 'Saya sudah mengisi borang pendaftaran' })).toBeInTheDocument();
    const privacy = within(section).getByRole('region', { name: 'Siapa yang melihat fail anda' });
    expect(privacy).toHaveTextContent('Hanya kakitangan kemasukan sekolah melihat fail ini');
    expect(privacy).toHaveTextContent('7 tahun selepas lawatan');
    const birth = screen.getAllByRole('listitem')[1];
    expect(within(birth).getByRole('button', { name: /^Muat naik / })).toBeEnabled();
    await user.upload(fileInput(birth), fileOf([new Uint8Array([0xff, 0xd8])], 'x.jpg', 'image/jpeg'));
    expect(await within(birth).findByRole('alert')).toHaveTextContent('Fail ini tidak dapat dibaca');
    expect(await axe(container)).toHaveNoViolations();
  });
});
