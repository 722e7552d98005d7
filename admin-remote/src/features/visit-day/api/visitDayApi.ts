// The staff's day (issue 40): the day's visits, Arrived / No-show / Undo, and a child's documents (the documents routes:
// the view, a file's download, a mark). Injected into the one shared API; answers parsed by the contract's schemas.
import { api, type Envelope } from 'shared-api';
import { saveBlob } from '../../../lib/csv';
import { attendanceAnswerSchema, visitDaySchema, type AttendanceAnswer, type VisitAttendanceState, type VisitDay } from 'shared-api/visit-day';
import { staffDocumentsViewSchema, type DocumentKind, type StaffDocumentsView, type StaffMark } from 'shared-api/documents';

export const visitDayApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** A day's visits (GMT+8); a staff move or cancel changes them too. */
    visitDay: build.query<VisitDay, string>({
      query: (day) => ({ url: '/staff/visits/day', params: { day } }),
      transformResponse: (body: Envelope<unknown>) => visitDaySchema.parse(body.data),
      providesTags: ['VisitDay', 'StaffSlots'],
    }),
    markAttendance: build.mutation<AttendanceAnswer, { reference: string; start: string; state: VisitAttendanceState }>({
      query: ({ reference, ...body }) => ({ url: `/staff/visits/${encodeURIComponent(reference)}/attendance`, method: 'POST', body }),
      transformResponse: (body: Envelope<unknown>) => attendanceAnswerSchema.parse(body.data),
      invalidatesTags: ['VisitDay'],
    }),
    undoAttendance: build.mutation<AttendanceAnswer, { reference: string; start: string }>({
      query: ({ reference, start }) => ({ url: `/staff/visits/${encodeURIComponent(reference)}/attendance`, method: 'DELETE', params: { start } }),
      transformResponse: (body: Envelope<unknown>) => attendanceAnswerSchema.parse(body.data),
      invalidatesTags: ['VisitDay'],
    }),
    staffDocuments: build.query<StaffDocumentsView, string>({
      query: (reference) => `/staff/bookings/${encodeURIComponent(reference)}/documents`,
      transformResponse: (body: Envelope<unknown>) => staffDocumentsViewSchema.parse(body.data),
      providesTags: ['VisitDay'],
    }),
    markDocument: build.mutation<StaffDocumentsView, { reference: string; position: number; kind: DocumentKind; mark: StaffMark | null }>({
      query: ({ reference, position, kind, mark }) => ({
        url: `/staff/bookings/${encodeURIComponent(reference)}/documents/${position}/${kind}/mark`,
        method: 'POST',
        body: { mark },
      }),
      transformResponse: (body: Envelope<unknown>) => staffDocumentsViewSchema.parse(body.data),
      // "Seen on paper" counts as in: the day's checklist changes.
      invalidatesTags: ['VisitDay'],
    }),
    /** Downloads a file (the server audits it); nothing is cached. */
    downloadDocument: build.mutation<null, { id: string; name: string }>({
      query: ({ id, name }) => ({
        url: `/staff/documents/${encodeURIComponent(id)}/download`,
        responseHandler: async (response) => {
          if (!response.ok) return response.json();
          saveBlob(await response.blob(), name);
          return null;
        },
      }),
    }),
  }),
});

export const {
  useVisitDayQuery,
  useMarkAttendanceMutation,
  useUndoAttendanceMutation,
  useStaffDocumentsQuery,
  useMarkDocumentMutation,
  useDownloadDocumentMutation,
} = visitDayApi;
