// WCAG 2.2 relative luminance and contrast ratio, used to keep the configured brand colour readable on white.

const channel = (value: number): number => {
  const v = value / 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
};

/** Parses #rgb or #rrggbb; throws on anything else so a bad brand.config.json fails loudly. */
export function parseHex(hex: string): [number, number, number] {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) throw new Error(`Not a hex colour: "${hex}"`);
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join('') : match[1];
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
}

export const toHex = ([r, g, b]: [number, number, number]): string =>
  '#' +
  [r, g, b]
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');

export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Mixes `hex` towards `target` by `amount` (0..1). */
export function mix(hex: string, target: string, amount: number): string {
  const a = parseHex(hex);
  const b = parseHex(target);
  return toHex(a.map((v, i) => v + (b[i] - v) * amount) as [number, number, number]);
}

/** Darkens a colour step by step until it reaches `ratio` against `background` (AA text: 4.5). */
export function ensureContrast(hex: string, background = '#ffffff', ratio = 4.5): string {
  let colour = toHex(parseHex(hex));
  for (let step = 0; step < 40 && contrastRatio(colour, background) < ratio; step += 1) {
    colour = mix(colour, '#000000', 0.05);
  }
  return colour;
}
