/** The size class of a page's name (`it.v.nameSize` in the templates), by its longest word. */

/** The longest run of characters without a space decides whether a name gets the smaller size. */
function longestWord(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 32 ? 0 : run + 1;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * The name's size class by its longest word: ' long' past 14 characters (every template sets it
 * smaller), ' mid' past 9 (templates with a wide, heavy face set it a size down, so that a word
 * like "@layla.draws" stays whole).
 */
export function nameSize(name: string): string {
  const longest = longestWord(name);
  if (longest > 14) return ' long';
  return longest > 9 ? ' mid' : '';
}
