// What the bundles share under the name `react-redux`: the hooks API and Provider only (RTK Query's React module
// and shared-api use nothing else). A shared package is never tree-shaken, and `connect` (with its hoisted statics)
// is most of react-redux: the subset keeps it off the first load. A missing name fails the build: add it here.
export { Provider, ReactReduxContext, batch, shallowEqual, useDispatch, useSelector, useStore } from 'react-redux/alternate-renderers';
