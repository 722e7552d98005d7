import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

export type MachineStep<S, F> = { state: S; effects: F[] };

/**
 * A pure state machine in a component: `send(event)` moves it on from its latest state (an answer arriving after
 * later events included) and runs the effects the move asked for with the latest `run`, which sends the answers of
 * its calls back as events. The opening's effects run once the component has mounted.
 */
export function useMachine<S, E, F>(
  transition: (state: S, event: E) => MachineStep<S, F>,
  opening: () => MachineStep<S, F>,
  run: (effect: F, send: (event: E) => void) => void,
): [S, (event: E) => void] {
  const [first] = useState(opening);
  const [state, setState] = useState(first.state);
  const latest = useRef(first.state);
  const runner = useRef(run);
  // `run` reads the render's props and hooks; effects run after the render that made them current.
  useLayoutEffect(() => {
    runner.current = run;
  });
  const send = useCallback(
    (event: E) => {
      const next = transition(latest.current, event);
      // A move that changes nothing (a status answer that is only recorded) renders nothing.
      if (next.state !== latest.current) {
        latest.current = next.state;
        setState(next.state);
      }
      for (const effect of next.effects) runner.current(effect, send);
    },
    [transition],
  );
  useEffect(() => {
    for (const effect of first.effects) runner.current(effect, send);
  }, [first, send]);
  return [state, send];
}
