import { contrastRatio, ensureContrast } from './contrast';
import { media } from './media';
import { theme } from './theme';

describe('theme', () => {
  const c = theme.colors;

  it.each([
    ['brand', c.brand],
    ['brandHover', c.brandHover],
    ['text', c.text],
    ['textMuted', c.textMuted],
    ['success', c.success],
    ['danger', c.danger],
    ['warning', c.warning],
    ['info', c.info],
  ])('%s text reaches WCAG AA (4.5:1) on white', (_name, colour) => {
    expect(contrastRatio(colour, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it.each([
    ['success', c.success, c.successSubtle],
    ['danger', c.danger, c.dangerSubtle],
    ['warning', c.warning, c.warningSubtle],
    ['info', c.info, c.infoSubtle],
    ['neutral', c.neutral, c.neutralSubtle],
    ['brand', c.brand, c.brandSubtle],
    ['muted button text', c.textMuted, c.disabledBackground],
  ])('%s text reaches AA on its tinted background', (_name, fg, bg) => {
    expect(contrastRatio(fg, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it('button text (white) reaches AA on the brand and danger fills', () => {
    expect(contrastRatio(c.onBrand, c.brand)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(c.onBrand, c.danger)).toBeGreaterThanOrEqual(4.5);
  });

  it('input borders reach the 3:1 non-text contrast', () => {
    expect(contrastRatio(c.borderStrong, '#ffffff')).toBeGreaterThanOrEqual(3);
  });

  it('keeps the configured brand colour when it already passes, darkens one that does not', () => {
    expect(ensureContrast('#0b5e55')).toBe('#0b5e55');
    const fixed = ensureContrast('#7fd1c4');
    expect(contrastRatio(fixed, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('media helpers carry the 1024 px desktop breakpoint', () => {
    expect(media.desktop.query).toBe('@media (min-width: 1024px)');
    expect(String(media.desktop)).toBe('@media (min-width: 1024px)');
    expect(media.mobile.query).toContain('max-width: 1023.98px');
  });
});
