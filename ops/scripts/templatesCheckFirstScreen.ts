/**
 * The first screen: a visitor sees what a page is for before scrolling. On the realistic page
 * (renderer/hostilePages.ts: a long bio with an e-mail and a web address, a featured link with a
 * note and a badge), the link blocks wholly in the first screen, from the top: at least 3 on a
 * 390×844 phone and at least 1 on a 320×568 one.
 */
import type { Page } from 'playwright-core';

export const FIRST_SCREENS = [
  { width: 390, height: 844, least: 3 },
  { width: 320, height: 568, least: 1 },
] as const;

/** One line per first screen that shows fewer link blocks than it must (none: it passes). */
export async function firstScreenProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  for (const screen of FIRST_SCREENS) {
    await page.setViewportSize({ width: screen.width, height: screen.height });
    const whole = await page.evaluate((height) => {
      window.scrollTo(0, 0);
      return [...document.querySelectorAll('li.block.link')].filter((li) => {
        const r = li.getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= height;
      }).length;
    }, screen.height);
    if (whole < screen.least) {
      problems.push(
        `first screen ${screen.width}×${screen.height}: ${whole} whole link block${whole === 1 ? '' : 's'}, at least ${screen.least}`,
      );
    }
  }
  return problems;
}
