export { InsightsBoard } from './components/InsightsBoard';
