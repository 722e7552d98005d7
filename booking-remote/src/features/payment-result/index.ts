export { RegistrationNotice } from './components/RegistrationNotice';
export { ResultPanel, Actions, LinkButton, Details } from '../../lib/resultLayout';
export { googleCalendarUrl, icsFile, visitWhen, type CalendarVisit } from './utils/calendar';
export { EmailNotice, type EmailTimeouts } from './components/EmailNotice';
