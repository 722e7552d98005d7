// What the bundles share under the name `react-router-dom`: the declarative-router API only.
// A shared package is never tree-shaken (any remote may ask for any export), so sharing all of react-router
// costs ~60 KB gzip on the first load; this list costs ~12 (MemoryRouter is for tests, which import the real package).
// A remote's own build resolves the whole package, so a name missing here fails only scripts/shared-router.test.ts
// (and the shell's build): add it here when a page needs it. UNSAFE_LocationContext: admin-remote's routes.tsx keeps
// the secured area's place while only the history entry changes.
export {
  BrowserRouter,
  Routes,
  Route,
  Link,
  Navigate,
  useNavigate,
  useLocation,
  useSearchParams,
  UNSAFE_LocationContext,
} from 'react-router';
