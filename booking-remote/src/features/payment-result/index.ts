export { RegistrationNotice } from './components/RegistrationNotice';
export { ResultPanel, Actions, LinkButton, Details, Sentence, ELEMENT } from '../../lib/resultLayout';
export { googleCalendarUrl, icsFile, visitWhen, type CalendarVisit, type CalendarLanguage } from './utils/calendar';
export { EmailNotice, type EmailTimeouts } from './components/EmailNotice';
export { resultCatalog } from './i18n';
