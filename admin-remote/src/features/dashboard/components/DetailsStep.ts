import type { ReactNode } from 'react';

/** Which step Appointment Details shows: the booking itself, or one change of it in the same dialog. */
export type DetailsStepName = 'details' | 'move' | 'cancel';

/** What one step puts in the Appointment Details dialog. */
export type DetailsStep = {
  title: string;
  description?: ReactNode;
  body: ReactNode;
  footer?: ReactNode;
  /** A change is being sent: the dialog cannot be closed meanwhile. */
  busy?: boolean;
};
