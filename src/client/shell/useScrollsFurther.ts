import { useCallback, useEffect, useState, type RefObject } from 'react';

/**
 * Whether a scrolling box has more content below what it shows (a hint that the list scrolls),
 * kept current on scroll and when its size or content changes.
 */
export function useScrollsFurther(ref: RefObject<HTMLElement | null>): boolean {
  const [further, setFurther] = useState(false);
  const measure = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    // 2 px of slack: fractional sizes can leave a sub-pixel remainder at the very bottom.
    setFurther(element.scrollTop + element.clientHeight < element.scrollHeight - 2);
  }, [ref]);

  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    resize?.observe(element);
    for (const child of Array.from(element.children)) resize?.observe(child);
    return () => {
      element.removeEventListener('scroll', measure);
      resize?.disconnect();
    };
  }, [ref, measure]);

  return further;
}
