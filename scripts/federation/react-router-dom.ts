// What the bundles share under the name `react-router-dom`: the declarative-router API only.
// A shared package is never tree-shaken (any remote may ask for any export), so sharing all of react-router
// costs ~60 KB gzip on the first load; this list costs ~12 (MemoryRouter is for tests, which import the real package). An import of a name missing here fails the
// build (scripts/build.ts treats "export ... was not found" as an error): add it here when a page needs it.
export {
  BrowserRouter,
  Routes,
  Route,
  Link,
  Navigate,
  useNavigate,
  useLocation,
  useSearchParams,
  // admin-remote's routes.tsx: the secured area's place, kept while only the history entry changes.
  UNSAFE_LocationContext,
} from 'react-router';
