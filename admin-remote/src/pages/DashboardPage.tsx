import { useState } from 'react';
import { Dashboard } from '../features/dashboard';
import { CreateSlotsDialog } from '../features/create-slots';

/** The dashboard and the create dialog it opens, composed here so neither feature reaches into the other. */
export function DashboardPage() {
  const [creating, setCreating] = useState(false);
  return (
    <>
      <Dashboard onCreateSlots={() => setCreating(true)} />
      <CreateSlotsDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
