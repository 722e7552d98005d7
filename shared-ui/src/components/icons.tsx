// The few inline icons the primitives need (no icon library on a phone's first load).
type IconProps = { size?: number };

const svgProps = (size: number) => ({
  width: size,
  height: size,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2.5,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
  'aria-hidden': true,
  focusable: false,
});

export const CloseIcon = ({ size = 20 }: IconProps) => (
  <svg {...svgProps(size)}>
    <path d="M6 6l12 12M18 6L6 18" />
  </svg>
);

export const CheckIcon = ({ size = 20 }: IconProps) => (
  <svg {...svgProps(size)}>
    <path d="M5 12.5l4.5 4.5L19 7" />
  </svg>
);

export const AlertIcon = ({ size = 20 }: IconProps) => (
  <svg {...svgProps(size)}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7.5v5.5M12 16.5v.01" />
  </svg>
);
