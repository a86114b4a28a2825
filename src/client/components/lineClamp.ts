/**
 * Shows at most `lines` lines of text, the rest cut with an ellipsis. Browsers clamp lines only
 * through the -webkit-box trio today (the standard `line-clamp` has not shipped), although
 * `-webkit-box-orient` is deprecated as a layout property: the idiom lives here, once.
 */
export function lineClamp(lines: number) {
  return {
    display: '-webkit-box',
    WebkitLineClamp: lines,
    WebkitBoxOrient: 'vertical' as const,
    overflow: 'hidden',
  };
}
