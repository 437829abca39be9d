/**
 * Text that a standard PDF font can draw. The 14 standard fonts encode WinAnsi only, and
 * pdf-lib throws on anything else, so a name in another script must still print (as `?`)
 * rather than fail the whole document.
 */
import type { PDFFont } from 'pdf-lib';

const LOOKALIKES: Record<string, string> = {
  '\u2212': '-', // minus sign
  '\u2010': '-',
  '\u2011': '-',
  '\u00a0': ' ',
  '\u2007': ' ',
  '\u202f': ' ',
};

const characterSets = new WeakMap<PDFFont, Set<number>>();

function characterSet(font: PDFFont): Set<number> {
  let set = characterSets.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    characterSets.set(font, set);
  }
  return set;
}

/** The text with control characters as spaces and characters the font lacks as `?`. */
export function drawable(font: PDFFont, text: string): string {
  const known = characterSet(font);
  let result = '';
  for (const character of text.normalize('NFC')) {
    const replaced = LOOKALIKES[character] ?? character;
    const code = replaced.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) result += ' ';
    else result += known.has(code) ? replaced : '?';
  }
  return result;
}

/** Greedy word wrap to `maxWidth`; a word longer than a line is cut where it overflows. */
export function wrapText(font: PDFFont, size: number, text: string, maxWidth: number): string[] {
  const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= maxWidth;
  const lines: string[] = [];
  let line = '';
  for (const word of drawable(font, text).split(/ +/).filter((part) => part !== '')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = word;
    while (!fits(line)) {
      const cut = longestFittingPrefix(line, fits);
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

function longestFittingPrefix(text: string, fits: (candidate: string) => boolean): number {
  let length = 1;
  while (length < text.length && fits(text.slice(0, length + 1))) length += 1;
  return length;
}

/** The text cut with an ellipsis so that it fits on one line. */
export function truncate(font: PDFFont, size: number, text: string, maxWidth: number): string {
  const clean = drawable(font, text);
  if (font.widthOfTextAtSize(clean, size) <= maxWidth) return clean;
  let length = clean.length;
  while (length > 0 && font.widthOfTextAtSize(`${clean.slice(0, length)}...`, size) > maxWidth) length -= 1;
  return `${clean.slice(0, length).trimEnd()}...`;
}
