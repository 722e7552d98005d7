import { useCallback } from 'react';
import { useAppDispatch } from 'shared-api';
import { manageApi, useGetManagedBookingQuery, type ManageResult } from '../api/manageApi';

/** The booking behind a manage token, and a way to put a change's answer (the booking as it now is) in its place. */
export function useManagedBooking(token: string) {
  const dispatch = useAppDispatch();
  const query = useGetManagedBookingQuery(token);
  const replace = useCallback(
    (result: ManageResult) => void dispatch(manageApi.util.upsertQueryData('getManagedBooking', token, result)),
    [dispatch, token],
  );
  return { query, replace };
}
