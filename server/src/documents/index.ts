// Issue 40: the visit's documents (uploads through the manage link, the store, staff downloads and marks).
export { documentFiles, documentMarks, registrationFormTicks, type DocumentFileRow } from './tables';
export { documentChecklistFor, missingDocumentsFor } from './checklist';
export { loadDocumentsConfig, type DocumentsConfig } from './config';
export { createDocumentStore, filesystemStore, s3Store, type DocumentStore } from './store';
export { documentsPlugin } from './plugin';
export { documentRoutes } from './routes';
export { deleteDocumentsOf, documentsOfPayments } from './service';
