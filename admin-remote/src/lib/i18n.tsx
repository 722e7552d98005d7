// The staff side's texts live in per-feature catalogues (features/<feature>/locales/en.json, see docs/I18N.md); only
// English exists today, and a catalogue without another language shows English there. Helpers shared by the features:
import { Fragment, type ReactNode } from 'react';
import { type MessageValues, type Translate } from 'shared-ui';

/**
 * `t` outside a component (text helpers such as the CSV's words): the message in the page's language at the time of
 * the call. Components use `useCatalog`, which also re-renders them when the language changes.
 */
export { translator } from 'shared-ui';

/** Some of a catalogue's English texts under their ids, as the features export them to their tests. */
export const english = <M extends Record<string, string>, K extends keyof M>(messages: M, ...ids: K[]): Pick<M, K> =>
  Object.fromEntries(ids.map((id) => [id, messages[id]])) as Pick<M, K>;

export type RichValues = Record<string, ReactNode>;
export type RichTags = Record<string, (children: ReactNode) => ReactNode>;

const OPEN = '\uE000';
const CLOSE = '\uE001';
const SENTINEL = new RegExp(`${OPEN}(\\d+)${CLOSE}`, 'g');
const TAG = /<([a-zA-Z][\w-]*)>([\s\S]*?)<\/\1>/g;

/**
 * A whole sentence with markup in it, e.g. "Signed in as <strong>{name}</strong>": the catalogue keeps the sentence
 * whole (translators move the tags with the words) and `tags` render each tagged part. Values that are not numbers
 * (names, elements) go through the message as placeholders that cannot be mistaken for markup, so a name holding
 * "<b>" stays text. Numbers pass as they are, for plurals.
 */
export function richText<M extends Record<string, string>>(
  t: Translate<M>,
  id: keyof M & string,
  values: RichValues = {},
  tags: RichTags = {},
): ReactNode {
  const held: ReactNode[] = [];
  const plain: MessageValues = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'number') plain[name] = value;
    else {
      plain[name] = `${OPEN}${held.length}${CLOSE}`;
      held.push(value);
    }
  }
  const keyed = (parts: ReactNode[]) => parts.map((part, i) => <Fragment key={i}>{part}</Fragment>);
  const withValues = (text: string): ReactNode[] =>
    text
      .split(SENTINEL)
      .map((part, i) => (i % 2 === 1 ? held[Number(part)] : part))
      .filter((part) => part !== '');

  const text = t(id, plain);
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    const render = tags[match[1]];
    if (!render) continue;
    nodes.push(...withValues(text.slice(last, match.index)), render(<>{keyed(withValues(match[2]))}</>));
    last = match.index + match[0].length;
  }
  nodes.push(...withValues(text.slice(last)));
  return <>{keyed(nodes)}</>;
}
