import { useMemo } from 'react';
import { todayInMY, type StaffSlot } from 'shared-api';
import { useStaffSlotsQuery } from '../api/staffSlotsApi';
import { isBookedSlot, slotDayMY } from '../utils/format';

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

  const { booked, available, stats } = useMemo(() => {
    const bookedSlots = all.filter(isBookedSlot);
    const availableSlots = all.filter((s) => !isBookedSlot(s));
    const today = todayInMY();
    return {
      booked: bookedSlots,
      available: availableSlots,
      stats: {
        total: all.length,
        booked: bookedSlots.length,
        available: availableSlots.length,
        today: all.filter((s) => slotDayMY(s.date) === today).length,
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

  return { all, booked, available, stats, isLoading, isError, isFetching, error, refetch };
}
