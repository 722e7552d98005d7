import { startStandalone } from 'shared-api/app-root';
import BookingRoutes from './routes';

// Standalone start of the public side: the same store, router, theme and toasts as in the shell.
void startStandalone(<BookingRoutes />);
