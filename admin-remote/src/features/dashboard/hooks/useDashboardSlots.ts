import { useMemo } from 'react';
import { todayInMY, type StaffSlot } from 'shared-api';
import { useStaffSlotsQuery } from '../api/staffSlotsApi';
import { isBookedSlot, isPastSlot, slotDayMY } from '../utils/format';

/** Every count is of what is still ahead (a slot whose start has gone by is past), Booked aside; Today's is what is left of today in GMT+8. */
export type DashboardStats = { total: number; booked: number; available: number; today: number };

/** Both staff lists merged, split by the dashboard's own rule (a visitor name means booked), with the stat counts. */
export function useDashboardSlots() {
  const availableQuery = useStaffSlotsQuery({ isBooked: false });
  const bookedQuery = useStaffSlotsQuery({ isBooked: true });

  const all = useMemo(() => {
    const byId = new Map<number, StaffSlot>();
    for (const slot of [...(availableQuery.data?.rows ?? []), ...(bookedQuery.data?.rows ?? [])]) byId.set(slot.id, slot);
    return [...byId.values()];
  }, [availableQuery.data, bookedQuery.data]);

  const { booked, available, past, stats } = useMemo(() => {
    // The clock is read when the lists change (load, Refresh, any mutation's refetch).
    const now = Date.now();
    const today = todayInMY(now);
    const pastSlots = all.filter((s) => isPastSlot(s, now));
    const upcoming = all.filter((s) => !isPastSlot(s, now));
    const bookedSlots = all.filter(isBookedSlot);
    const availableSlots = upcoming.filter((s) => !isBookedSlot(s));
    return {
      // The Booked view lists every booking, past ones too, as it always did.
      booked: bookedSlots,
      available: availableSlots,
      past: pastSlots,
      stats: {
        total: upcoming.length,
        booked: bookedSlots.length,
        available: availableSlots.length,
        today: upcoming.filter((s) => slotDayMY(s.date) === today).length,
      } satisfies DashboardStats,
    };
  }, [all]);

  const isLoading = availableQuery.isLoading || bookedQuery.isLoading;
  const isError = availableQuery.isError || bookedQuery.isError;
  const isFetching = availableQuery.isFetching || bookedQuery.isFetching;
  const error = availableQuery.error ?? bookedQuery.error;
  const refetch = () => {
    availableQuery.refetch();
    bookedQuery.refetch();
  };

  return { all, booked, available, past, stats, isLoading, isError, isFetching, error, refetch };
}
