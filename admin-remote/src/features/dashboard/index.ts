export { Dashboard } from './components/Dashboard';
export { prefetchDashboardPage } from './prefetch';
