import type { ReactNode } from 'react';
import { Button } from 'shared-ui';

/** An account form's one button: full width, and saying so while the form is on its way (`busyLabel`). */
export function SubmitButton({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: ReactNode }) {
  return (
    <Button type="submit" variant="primary" fullWidth loading={busy}>
      {busy ? busyLabel : children}
    </Button>
  );
}
