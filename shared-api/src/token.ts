import Cookies from 'js-cookie';
import { TOKEN_COOKIE } from './contract/constants';

// The staff token lives in the `token` cookie at path `/` (spec section 6).
export const getToken = (): string | undefined => Cookies.get(TOKEN_COOKIE);

export function setToken(token: string): void {
  const secure = typeof window !== 'undefined' && window.location.protocol === 'https:';
  Cookies.set(TOKEN_COOKIE, token, { path: '/', sameSite: 'Strict', secure });
}

export function removeToken(): void {
  Cookies.remove(TOKEN_COOKIE, { path: '/' });
}
