// The token is the path's last part. Not useParams: the router the bundles share is a subset without it
// (scripts/federation/react-router-dom.ts), and adding it would grow the first load of `/`.
export const tokenOf = (pathname: string): string => {
  const last = pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
};
