/**
 * The page layout every deliverable shares: Letter pages with a header band (carrier, title,
 * policy number) on every page, titled sections, wrapped text, field grids and tables that
 * break across pages with their column headings repeated, and a `Page x of y` footer.
 * Content flows top to bottom; a block that does not fit starts a new page.
 */
import { PDFDocument, PageSizes, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { drawable, truncate, wrapText } from './text.js';

const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.Letter;
const MARGIN_X = 54;
const MARGIN_TOP = 36;
const BAND_HEIGHT = 58;
const FOOTER_Y = 30;
const CONTENT_BOTTOM = 62;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;

export const COLORS = {
  ink: rgb(0.1, 0.1, 0.12),
  muted: rgb(0.38, 0.4, 0.45),
  band: rgb(0.09, 0.2, 0.36),
  bandText: rgb(1, 1, 1),
  bandSubtle: rgb(0.78, 0.84, 0.92),
  rule: rgb(0.72, 0.75, 0.8),
  headerFill: rgb(0.88, 0.91, 0.95),
  stripe: rgb(0.965, 0.97, 0.98),
  groupFill: rgb(0.93, 0.94, 0.96),
  highlight: rgb(0.98, 0.95, 0.85),
};

export const SIZES = { body: 9.5, table: 9, label: 7.5, section: 11.5, bandTitle: 14, carrier: 13, small: 8 };

export interface PageHeader {
  carrierName: string;
  carrierAddress: string;
  title: string;
  policyNumber: string;
  /** `Policy Number`, or `Quote Number` on a quote. */
  numberLabel: string;
  /** Left part of the footer: who issued what, and when. */
  footerNote: string;
}

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

export class PageFlow {
  private page!: PDFPage;
  private y = 0;

  private constructor(
    readonly pdf: PDFDocument,
    readonly fonts: Fonts,
    private readonly header: PageHeader,
  ) {}

  static async start(pdf: PDFDocument, header: PageHeader): Promise<PageFlow> {
    const fonts = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
    const flow = new PageFlow(pdf, fonts, header);
    flow.newPage();
    return flow;
  }

  get width(): number {
    return CONTENT_WIDTH;
  }

  get left(): number {
    return MARGIN_X;
  }

  get cursor(): number {
    return this.y;
  }

  get currentPage(): PDFPage {
    return this.page;
  }

  newPage(): void {
    this.page = this.pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    drawHeaderBand(this.page, this.fonts, this.header);
    this.y = PAGE_HEIGHT - MARGIN_TOP - BAND_HEIGHT - 22;
  }

  /** Whether `height` more points fit above the footer on this page. */
  fits(height: number): boolean {
    return this.y - height >= CONTENT_BOTTOM;
  }

  /** Starts a new page unless `height` more points fit above the footer. */
  ensureSpace(height: number): void {
    if (!this.fits(height)) this.newPage();
  }

  /** Places a block of `height` at the foot of the page (on a new page if it does not fit). */
  toFootOfPage(height: number): void {
    this.ensureSpace(height);
    this.y = CONTENT_BOTTOM + height;
  }

  space(points: number): void {
    this.y -= points;
  }

  /** Moves the cursor down by `height` and returns the top of the reserved block. */
  reserve(height: number): number {
    this.ensureSpace(height);
    const top = this.y;
    this.y -= height;
    return top;
  }

  /** A section title with a rule under it; kept with at least `keepWith` points of what follows. */
  section(title: string, keepWith = 40): void {
    this.space(8);
    const top = this.reserve(SIZES.section + 8 + keepWith);
    this.y = top - SIZES.section - 8;
    this.text(title, this.left, top - SIZES.section, { font: this.fonts.bold, size: SIZES.section, color: COLORS.band });
    this.page.drawLine({ start: { x: this.left, y: top - SIZES.section - 4 }, end: { x: this.left + this.width, y: top - SIZES.section - 4 }, thickness: 0.8, color: COLORS.band });
  }

  /** Wrapped text across the content width. */
  paragraph(text: string, options: { bold?: boolean; size?: number; color?: ReturnType<typeof rgb> } = {}): void {
    const font = options.bold ? this.fonts.bold : this.fonts.regular;
    const size = options.size ?? SIZES.body;
    const lineHeight = size * 1.35;
    for (const line of wrapText(font, size, text, this.width)) {
      const top = this.reserve(lineHeight);
      this.text(line, this.left, top - size, { font, size, color: options.color });
    }
    this.space(3);
  }

  /** Draws text already laid out (call `drawable` first for text of unknown origin). */
  text(value: string, x: number, y: number, options: { font?: PDFFont; size?: number; color?: ReturnType<typeof rgb> } = {}): void {
    const font = options.font ?? this.fonts.regular;
    this.page.drawText(drawable(font, value), { x, y, font, size: options.size ?? SIZES.body, color: options.color ?? COLORS.ink });
  }

  rectangle(x: number, y: number, width: number, height: number, color: ReturnType<typeof rgb>): void {
    this.page.drawRectangle({ x, y, width, height, color });
  }

  /** `Page x of y` and the footer note on every page: known only once all pages exist. */
  finish(): void {
    const pages = this.pdf.getPages();
    pages.forEach((page, index) => drawFooter(page, this.fonts, this.header.footerNote, `Page ${index + 1} of ${pages.length}`));
  }
}

function drawHeaderBand(page: PDFPage, fonts: Fonts, header: PageHeader): void {
  const top = PAGE_HEIGHT - MARGIN_TOP;
  page.drawRectangle({ x: MARGIN_X, y: top - BAND_HEIGHT, width: CONTENT_WIDTH, height: BAND_HEIGHT, color: COLORS.band });
  const inset = 12;
  const half = CONTENT_WIDTH / 2 - inset;
  const carrier = truncate(fonts.bold, SIZES.carrier, header.carrierName, half);
  page.drawText(carrier, { x: MARGIN_X + inset, y: top - 24, font: fonts.bold, size: SIZES.carrier, color: COLORS.bandText });
  const address = truncate(fonts.regular, SIZES.small, header.carrierAddress, half);
  page.drawText(address, { x: MARGIN_X + inset, y: top - 40, font: fonts.regular, size: SIZES.small, color: COLORS.bandSubtle });
  const right = MARGIN_X + CONTENT_WIDTH - inset;
  const title = truncate(fonts.bold, SIZES.bandTitle, header.title, half);
  page.drawText(title, { x: right - fonts.bold.widthOfTextAtSize(title, SIZES.bandTitle), y: top - 25, font: fonts.bold, size: SIZES.bandTitle, color: COLORS.bandText });
  const number = truncate(fonts.regular, SIZES.body, `${header.numberLabel} ${header.policyNumber}`, half);
  page.drawText(number, { x: right - fonts.regular.widthOfTextAtSize(number, SIZES.body), y: top - 41, font: fonts.regular, size: SIZES.body, color: COLORS.bandSubtle });
}

function drawFooter(page: PDFPage, fonts: Fonts, note: string, pageLabel: string): void {
  page.drawLine({ start: { x: MARGIN_X, y: FOOTER_Y + 13 }, end: { x: MARGIN_X + CONTENT_WIDTH, y: FOOTER_Y + 13 }, thickness: 0.5, color: COLORS.rule });
  const labelWidth = fonts.regular.widthOfTextAtSize(pageLabel, SIZES.small);
  const noteText = truncate(fonts.regular, SIZES.small, note, CONTENT_WIDTH - labelWidth - 24);
  page.drawText(noteText, { x: MARGIN_X, y: FOOTER_Y, font: fonts.regular, size: SIZES.small, color: COLORS.muted });
  page.drawText(pageLabel, { x: MARGIN_X + CONTENT_WIDTH - labelWidth, y: FOOTER_Y, font: fonts.regular, size: SIZES.small, color: COLORS.muted });
}
