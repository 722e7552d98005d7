import { startStandalone } from 'shared-api/app-root';
import AdminRoutes from './routes';

// Standalone start of the staff side: the same store, router, theme and toasts as in the shell; English, as staff pages are.
void startStandalone(<AdminRoutes />, 'en');
