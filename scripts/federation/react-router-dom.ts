// What the bundles share under the name `react-router-dom`: the declarative-router API only.
// A shared package is never tree-shaken (any remote may ask for any export), so sharing all of react-router
// costs ~60 KB gzip on the first load; this list costs ~12. An import of a name missing here fails the
// build (scripts/build.ts treats "export ... was not found" as an error): add it here when a page needs it.
export {
  BrowserRouter,
  MemoryRouter,
  Routes,
  Route,
  Link,
  NavLink,
  Navigate,
  Outlet,
  useNavigate,
  useLocation,
  useParams,
  useSearchParams,
  useMatch,
  useHref,
  useResolvedPath,
  useInRouterContext,
  useOutlet,
  useOutletContext,
  useRoutes,
  useNavigationType,
  matchPath,
  matchRoutes,
  generatePath,
  resolvePath,
  createSearchParams,
  createPath,
  parsePath,
} from 'react-router';
