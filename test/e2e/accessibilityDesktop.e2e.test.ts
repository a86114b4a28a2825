import { describeAccessibilitySweep, VIEWPORTS } from './helpers/accessibilitySweep';

// Every route at desktop size (1440×900), signed out and in, with data: no serious or critical axe
// violation. Then keyboard focus: tabbing through the sidebar shows a ring on every stop; and the
// sidebar's Upgrade card, with every flag on, can be brought fully into view above the footer.
describeAccessibilitySweep(VIEWPORTS.desktop, ({ signedInPage, visit }) => {
  it('shows a focus ring on every stop of the sidebar when tabbing', async () => {
    const page = await signedInPage();
    await visit(page, '/dashboard');
    const stops: { label: string; ring: boolean }[] = [];
    // Tab from the top of the page until the focus has walked through the whole sidebar.
    for (let press = 0; press < 80; press++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element?.closest('nav')) return null;
        const style = getComputedStyle(element);
        const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
        const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
        const label = element.textContent.trim() || (element.getAttribute('aria-label') ?? element.tagName);
        return { label, ring: outline || shadow };
      });
      if (focused) stops.push(focused);
      else if (stops.length) break;
    }
    expect(stops.length).toBeGreaterThan(5);
    expect(stops.filter((stop) => !stop.ring)).toEqual([]);
  });

  it('shows the whole Upgrade card above the sidebar footer once scrolled to (issue 38)', async () => {
    const page = await signedInPage();
    await visit(page, '/dashboard');
    // Scrolled to as a user would (wheel or keyboard); the card is in the sidebar's scroller.
    await page.locator('[data-testid="sidebar-scroll"] [aria-label="Upgrade to Pro"]').scrollIntoViewIfNeeded();
    const seen = await page.evaluate(() => {
      const element = document.querySelector('[data-testid="sidebar-scroll"] [aria-label="Upgrade to Pro"]');
      const button = element?.querySelector('button');
      if (!element || !button) return 'no Upgrade card';
      const box = button.getBoundingClientRect();
      // What a click at the button's centre would reach: the button, not a footer laid over it.
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      const cardBox = element.getBoundingClientRect();
      const scroller = element.closest('[data-testid="sidebar-scroll"]')?.getBoundingClientRect();
      if (!scroller) return 'the card is not in the sidebar scroller';
      if (cardBox.bottom > scroller.bottom + 1 || cardBox.top < scroller.top - 1) return 'card cut by the scroller';
      return hit && button.contains(hit) ? 'visible' : `covered by ${hit?.tagName ?? 'nothing'}`;
    });
    expect(seen).toBe('visible');
  });
});
