export { PersonData } from './components/PersonData';
export { RequestsComingDue } from './components/RequestsComingDue';
export { RequestLog } from './components/RequestLog';
export { NewRequestForm } from './components/NewRequestForm';
