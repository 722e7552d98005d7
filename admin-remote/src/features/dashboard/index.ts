export { Dashboard, DashboardText } from './components/Dashboard';
