import { useEffect, useState } from 'react';

/** `value` once it has stayed the same for `ms` (a search box asks the server after the typing pauses, not per key). */
export function useDebouncedValue<Value>(value: Value, ms: number): Value {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
