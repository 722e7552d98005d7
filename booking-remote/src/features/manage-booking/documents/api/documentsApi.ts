import { useCallback } from 'react';
import { api, useAppDispatch, type Envelope } from 'shared-api';
import { DOCUMENT_FILE_FIELD, type DocumentKind, type DocumentsView } from 'shared-api/documents';

/** A phone on a slow network may take a while over 10 MB; the store's usual 15 s would give up mid-upload. */
const UPLOAD_TIMEOUT_MS = 180_000;

const base = (token: string) => `/api/booking/manage/${encodeURIComponent(token)}`;
type Slot = { token: string; position: number; kind: DocumentKind };
const slotUrl = ({ token, position, kind }: Slot) => `${base(token)}/documents/${position}/${kind}`;
const asView = (body: Envelope<DocumentsView>) => body.data;

// The visit's documents through the manage link (issue 40). Every change answers with the whole checklist as it now
// is, which takes the cached one's place (useKeepDocuments; a refused change leaves the cache, so the page, as it was).
export const documentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getVisitDocuments: build.query<DocumentsView, string>({
      query: (token) => `${base(token)}/documents`,
      transformResponse: asView,
    }),
    /** Upload or replace (multipart, one field): the server identifies the file by its content, not its name. */
    uploadVisitDocument: build.mutation<DocumentsView, Slot & { file: File }>({
      query: ({ file, ...slot }) => {
        const body = new FormData();
        body.append(DOCUMENT_FILE_FIELD, file, file.name);
        return { url: slotUrl(slot), method: 'PUT', body, timeout: UPLOAD_TIMEOUT_MS };
      },
      transformResponse: asView,
    }),
    removeVisitDocument: build.mutation<DocumentsView, Slot>({
      query: (slot) => ({ url: slotUrl(slot), method: 'DELETE' }),
      transformResponse: asView,
    }),
    markRegistrationForm: build.mutation<DocumentsView, { token: string; done: boolean }>({
      query: ({ token, done }) => ({ url: `${base(token)}/registration-form`, method: 'POST', body: { done } }),
      transformResponse: asView,
    }),
  }),
});

/** Puts a change's answer (the checklist as it now is) in place of the cached one; a refusal, not put, changes nothing. */
export function useKeepDocuments(token: string): (view: DocumentsView) => void {
  const dispatch = useAppDispatch();
  return useCallback((view: DocumentsView) => void dispatch(documentsApi.util.upsertQueryData('getVisitDocuments', token, view)), [dispatch, token]);
}

export const { useGetVisitDocumentsQuery, useUploadVisitDocumentMutation, useRemoveVisitDocumentMutation, useMarkRegistrationFormMutation } = documentsApi;
