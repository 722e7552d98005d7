export { BreachLog } from './components/BreachLog';
export { NewBreachForm } from './components/NewBreachForm';
