export { RegistrationNotice } from './components/RegistrationNotice';
export { ResultPanel, Actions, LinkButton, Details } from './components/ResultLayout';
export { googleCalendarUrl, icsFile, visitWhen, type CalendarVisit } from './utils/calendar';
export { EmailNotice, type EmailTimeouts } from './components/EmailNotice';
