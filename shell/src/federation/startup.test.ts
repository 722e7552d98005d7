import type { RoutesModule } from './remotes';
import { takeStartedLoadFirst } from './startup';

const routes = (name: string): RoutesModule => ({ default: Object.assign(() => null, { displayName: name }) });

describe('the page remote started before the shell renders', () => {
  it('hands the load already under way to the first caller and loads afresh for the next (Retry)', async () => {
    const started = Promise.resolve(routes('early'));
    const load = jest.fn(async () => routes('again'));
    const loader = takeStartedLoadFirst(started, load);

    expect(await loader()).toBe(await started);
    expect(load).not.toHaveBeenCalled();
    expect((await loader()).default).toHaveProperty('displayName', 'again');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps an early failure for the first caller, so the error panel shows it, and lets Retry try again', async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const started = Promise.reject(new Error('remote down'));
      const loader = takeStartedLoadFirst(started, async () => routes('after retry'));
      // Nobody waits for a while (the shell is still starting): no unhandled rejection in the meantime.
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).not.toHaveBeenCalled();

      await expect(loader()).rejects.toThrow('remote down');
      expect((await loader()).default).toHaveProperty('displayName', 'after retry');
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
