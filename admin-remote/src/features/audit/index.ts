export { AuditTrail, AuditText, AUDIT_PAGE_SIZE } from './components/AuditTrail';
