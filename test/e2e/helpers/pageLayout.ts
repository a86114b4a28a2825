import type { Page } from 'playwright-core';

/**
 * What is wrong with the layout of the page as drawn (issue 38): the page wider than the viewport,
 * or a table wider than the box it sits in with no scroll container between them (its last
 * columns cut off with no way to reach them). Empty when the page fits.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth > window.innerWidth) {
      // Name the widest elements sticking out, so the failure says where to look.
      // Name the outermost elements sticking out that nothing clips, so the failure says where to look.
      const clipped = (element: Element) => {
        for (let box = element.parentElement; box && box !== document.body; box = box.parentElement)
          if (getComputedStyle(box).overflowX !== 'visible') return true;
        return false;
      };
      const culprits = [...document.querySelectorAll<HTMLElement>('body *')]
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1 && !clipped(element))
        .slice(0, 3)
        .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 2).join('.')}`);
      problems.push(`page is ${pageWidth} px wide in ${window.innerWidth} (${culprits.join(', ')})`);
    }
    const scrolls = (element: Element) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX);
    for (const table of document.querySelectorAll('table')) {
      // Walk up to the first box narrower than the table: it must scroll (or one between them must).
      for (let box = table.parentElement; box && box !== document.body; box = box.parentElement) {
        if (scrolls(box)) break;
        if (box.clientWidth > 0 && table.scrollWidth > box.clientWidth + 1) {
          const name = table.getAttribute('aria-label') ?? 'a table';
          problems.push(`${name}: ${table.scrollWidth} px inside ${box.clientWidth} px with no scroll container`);
          break;
        }
      }
    }
    return problems;
  });
}
