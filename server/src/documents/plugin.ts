import fp from 'fastify-plugin';
import { DocumentsService } from './service';
import { createDocumentStore, type DocumentStore } from './store';

declare module 'fastify' {
  interface FastifyInstance {
    /** The visit's documents (issue 40): the parent's uploads through the manage link, the staff's downloads and marks. */
    documents: DocumentsService;
    /** Where the documents' bytes are (config.documents: a folder or an S3-compatible bucket). */
    documentStore: DocumentStore;
  }
}

export const documentsPlugin = fp(
  async (app) => {
    const store = createDocumentStore(app.config.documents);
    app.decorate('documentStore', store);
    app.decorate('documents', new DocumentsService({ db: app.db, store, log: app.log }));
  },
  { name: 'documents', dependencies: ['database'] },
);
