export { AuditLogDialog } from './components/AuditLogDialog';
export { AuditLogView } from './components/AuditLogView';
