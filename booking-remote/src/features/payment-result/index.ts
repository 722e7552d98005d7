export { RegistrationNotice } from './components/RegistrationNotice';
export { ResultPanel, Actions, LinkButton, Details, Sentence, ELEMENT, VisitBlock } from '../../lib/resultLayout';
export { calendarVisitOf, googleCalendarUrl, icsFile, visitWhen, type CalendarVisit, type CalendarLanguage } from './utils/calendar';
export { EmailNotice, type EmailTimeouts } from './components/EmailNotice';
export { resultCatalog } from './i18n';
export { failureMessageId, failurePath, paymentIdShown } from './utils/failure';
export { visitTitle, type VisitChild } from './utils/visitTitle';
export { ChildrenPaid } from './components/ChildrenPaid';
