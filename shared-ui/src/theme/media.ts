import { css, type Interpolation, type RuleSet } from 'styled-components';
import { breakpoints } from './theme';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyProps = any;

/**
 * A media helper usable three ways inside styled templates:
 *   ${media.desktop`display: flex;`}   ${media.desktop(css`...`)}   ${media.desktop} { display: flex; }
 */
export type MediaHelper = {
  (strings: TemplateStringsArray, ...interpolations: Interpolation<AnyProps>[]): RuleSet<AnyProps>;
  (rules: RuleSet<AnyProps>): RuleSet<AnyProps>;
  /** Interpolated bare, styled-components calls it with the props and gets the query back. */
  (executionContext: object): string;
  /** The bare query, e.g. "@media (min-width: 1024px)". */
  readonly query: string;
};

const isTemplate = (value: unknown): value is TemplateStringsArray =>
  Array.isArray(value) && 'raw' in (value as object);

function makeMedia(query: string): MediaHelper {
  function helper(first: unknown, ...rest: Interpolation<AnyProps>[]): RuleSet<AnyProps> | string {
    if (isTemplate(first))
      return css`
        ${query} {
          ${css(first, ...rest)}
        }
      `;
    if (Array.isArray(first))
      return css`
        ${query} {
          ${first as RuleSet<AnyProps>}
        }
      `;
    // Interpolated bare (`${media.desktop} { ... }`): styled-components calls it with the props.
    return query;
  }
  return Object.assign(helper, { query, toString: () => query }) as unknown as MediaHelper;
}

/** Mobile first: base styles are for phones; `desktop` from 1024 px, `mobile` below it. */
export const media = {
  desktop: makeMedia(`@media (min-width: ${breakpoints.desktop}px)`),
  mobile: makeMedia(`@media (max-width: ${breakpoints.desktop - 0.02}px)`),
};
