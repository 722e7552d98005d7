export { BreachLog } from './components/BreachLog';
export { BreachesComingDue } from './components/BreachesComingDue';
export { NewBreachForm } from './components/NewBreachForm';
