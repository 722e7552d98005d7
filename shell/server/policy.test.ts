import { remotePageContentSecurityPolicy, shellContentSecurityPolicy } from './policy';

const remotes = { booking: 'https://booking.example.my/remoteEntry.js', admin: 'https://admin.example.my/remoteEntry.js', api: 'https://api.example.my' };

describe("the shell's Content-Security-Policy", () => {
  it("names the remotes' and the API's origins of remotes.json (the policy README.md shows for these addresses)", () => {
    expect(shellContentSecurityPolicy(remotes)).toBe(
      "default-src 'self'; script-src 'self' https://booking.example.my https://admin.example.my; connect-src 'self' https://api.example.my https://booking.example.my https://admin.example.my; style-src 'self' 'unsafe-inline'; img-src 'self' data: https://booking.example.my https://admin.example.my; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it("adds the error reports' origin to connect-src only when remotes.json has one, and names an origin once", () => {
    const policy = shellContentSecurityPolicy({ ...remotes, admin: 'https://booking.example.my/admin/remoteEntry.js', errorReportUrl: 'https://errors.example.my/report' });
    expect(policy).toContain("script-src 'self' https://booking.example.my;");
    expect(policy).toContain("connect-src 'self' https://api.example.my https://booking.example.my https://errors.example.my;");
  });
});

describe("a remote's own page", () => {
  it('runs its own code and calls only the API', () => {
    expect(remotePageContentSecurityPolicy('https://api.example.my/')).toBe(
      "default-src 'self'; script-src 'self'; connect-src 'self' https://api.example.my; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
    );
  });
});
