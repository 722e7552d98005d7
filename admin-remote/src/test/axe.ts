import { axe, toHaveNoViolations } from 'jest-axe';

// jest-axe's matcher for the admin-remote tests.
expect.extend(toHaveNoViolations);

export { axe };
