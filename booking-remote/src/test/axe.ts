import { axe, toHaveNoViolations } from 'jest-axe';

// jest-axe's matcher, registered for the tests that import axe from here.
expect.extend(toHaveNoViolations);

export { axe };
