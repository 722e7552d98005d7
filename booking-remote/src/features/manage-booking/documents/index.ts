// Issue 40: the visit's documents on the manage page (uploads, the registration form's tick, the PDPA notice).
export { VisitDocuments } from './components/VisitDocuments';
