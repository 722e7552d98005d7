import { remoteForPath } from './remoteForPath';

describe('remoteForPath', () => {
  it.each(['/login', '/login/', '/register', '/forgot-password', '/reset-password/abc_DEF-123', '/secured/dashboard', '/secured', '/secured/', '/secured/a/b'])('sends %s to the admin remote', (path) => {
    expect(remoteForPath(path)).toBe('admin');
  });

  it.each(['/', '/thankyou', '/payment/success', '/payment/failure', '/payment/pending', '/loginx', '/unknown', '/securedx', '/login/x', '/reset-password', '/reset-password/a/b', '/forgot-passwordx'])(
    'sends %s to the booking remote',
    (path) => {
      expect(remoteForPath(path)).toBe('booking');
    },
  );
});
