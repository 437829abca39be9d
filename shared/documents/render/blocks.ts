/**
 * The blocks deliverables are made of: field grids (label over value, in columns) and tables
 * whose rows break across pages, repeating the section title and the column headings.
 */
import { COLORS, SIZES, type PageFlow } from './layout.js';
import { truncate, wrapText } from './text.js';

export interface Field {
  label: string;
  lines: string[];
}

export interface TableColumn {
  header: string;
  /** Share of the table's width; the shares of a table add up to 1. */
  width: number;
  align?: 'left' | 'right';
}

/** `group` spans all columns (a property's heading); `total` is bold under a rule. */
export interface TableRow {
  cells: string[];
  style?: 'plain' | 'group' | 'total';
}

export interface TableOptions {
  /** The section the table belongs to, repeated as `(continued)` on a new page. */
  continuedTitle?: string;
  /** Share of the content width, the table set flush right (totals boxes). */
  widthShare?: number;
}

const PAD_X = 5;
const PAD_Y = 3.5;
const LINE = SIZES.table * 1.3;

/** Fields in `columns` columns; each row of fields stays on one page. */
export function drawFieldGrid(flow: PageFlow, fields: Field[], columns: number): void {
  const columnWidth = flow.width / columns;
  for (let start = 0; start < fields.length; start += columns) {
    const row = fields.slice(start, start + columns).map((field) => ({
      label: truncate(flow.fonts.bold, SIZES.label, field.label.toUpperCase(), columnWidth - 10),
      lines: field.lines.flatMap((line) => wrapText(flow.fonts.regular, SIZES.body, line, columnWidth - 10)),
    }));
    const lineCount = Math.max(...row.map((field) => field.lines.length));
    const height = SIZES.label + 6 + lineCount * SIZES.body * 1.3 + 8;
    const top = flow.reserve(height);
    row.forEach((field, index) => {
      const x = flow.left + index * columnWidth;
      flow.text(field.label, x, top - SIZES.label, { font: flow.fonts.bold, size: SIZES.label, color: COLORS.muted });
      field.lines.forEach((line, lineIndex) => flow.text(line, x, top - SIZES.label - 6 - SIZES.body - lineIndex * SIZES.body * 1.3));
    });
  }
}

interface LaidOutRow {
  row: TableRow;
  lines: string[][];
  height: number;
}

interface TableGeometry {
  x: number;
  widths: number[];
  total: number;
}

function geometry(flow: PageFlow, columns: TableColumn[], options: TableOptions): TableGeometry {
  const total = flow.width * (options.widthShare ?? 1);
  return { x: flow.left + flow.width - total, widths: columns.map((column) => column.width * total), total };
}

function layOutRow(flow: PageFlow, columns: TableColumn[], table: TableGeometry, row: TableRow): LaidOutRow {
  const font = row.style === 'plain' || row.style === undefined ? flow.fonts.regular : flow.fonts.bold;
  if (row.style === 'group') {
    const lines = [wrapText(font, SIZES.table, row.cells.join('  '), table.total - 2 * PAD_X)];
    return { row, lines, height: lines[0].length * LINE + 2 * PAD_Y };
  }
  const lines = columns.map((column, index) => {
    const text = row.cells[index] ?? '';
    const room = table.widths[index] - 2 * PAD_X;
    return column.align === 'right' ? [truncate(font, SIZES.table, text, room)] : wrapText(font, SIZES.table, text, room);
  });
  return { row, lines, height: Math.max(...lines.map((cell) => cell.length)) * LINE + 2 * PAD_Y };
}

function drawHeadings(flow: PageFlow, columns: TableColumn[], table: TableGeometry): void {
  const height = LINE + 2 * PAD_Y;
  const top = flow.reserve(height);
  flow.rectangle(table.x, top - height, table.total, height, COLORS.headerFill);
  const headings = { cells: columns.map((column) => column.header), style: 'total' as const };
  drawCells(flow, columns, table, layOutRow(flow, columns, table, headings), top);
}

function drawCells(flow: PageFlow, columns: TableColumn[], table: TableGeometry, laidOut: LaidOutRow, top: number): void {
  const font = laidOut.row.style === 'plain' || laidOut.row.style === undefined ? flow.fonts.regular : flow.fonts.bold;
  let x = table.x;
  laidOut.lines.forEach((cell, index) => {
    const width = laidOut.row.style === 'group' ? table.total : table.widths[index];
    cell.forEach((line, lineIndex) => {
      const baseline = top - PAD_Y - SIZES.table - lineIndex * LINE + 1.5;
      const right = columns[index]?.align === 'right' && laidOut.row.style !== 'group';
      const lineX = right ? x + width - PAD_X - font.widthOfTextAtSize(line, SIZES.table) : x + PAD_X;
      flow.text(line, lineX, baseline, { font, size: SIZES.table });
    });
    x += width;
  });
}

/**
 * A table under the current section. Rows never split; on a new page the section title and the
 * column headings repeat, and so does the group heading (the property) a page break cuts into.
 */
export function drawTable(flow: PageFlow, columns: TableColumn[], rows: TableRow[], options: TableOptions = {}): void {
  const table = geometry(flow, columns, options);
  const laidOut = rows.map((row) => layOutRow(flow, columns, table, row));
  const headingHeight = LINE + 2 * PAD_Y;
  flow.ensureSpace(headingHeight + (laidOut[0]?.height ?? 0));
  drawHeadings(flow, columns, table);
  let stripe = false;
  let group: LaidOutRow | undefined;
  laidOut.forEach((row, index) => {
    // A group's heading row stays with its first row.
    const keep = row.row.style === 'group' ? row.height + (laidOut[index + 1]?.height ?? 0) : row.height;
    if (!flow.fits(keep)) {
      flow.newPage();
      if (options.continuedTitle) flow.section(`${options.continuedTitle} (continued)`, headingHeight + keep);
      drawHeadings(flow, columns, table);
      if (group && row.row.style !== 'group') drawRow(flow, columns, table, continued(flow, columns, table, group), false);
      stripe = false;
    }
    if (row.row.style === 'group') group = row;
    drawRow(flow, columns, table, row, stripe);
    stripe = row.row.style === 'group' ? false : !stripe;
  });
  flow.currentPage.drawLine({ start: { x: table.x, y: flow.cursor }, end: { x: table.x + table.total, y: flow.cursor }, thickness: 0.5, color: COLORS.rule });
  flow.space(6);
}

function continued(flow: PageFlow, columns: TableColumn[], table: TableGeometry, group: LaidOutRow): LaidOutRow {
  return layOutRow(flow, columns, table, { cells: [`${group.row.cells.join('  ')} (continued)`], style: 'group' });
}

function drawRow(flow: PageFlow, columns: TableColumn[], table: TableGeometry, row: LaidOutRow, stripe: boolean): void {
  const top = flow.reserve(row.height);
  if (row.row.style === 'group') flow.rectangle(table.x, top - row.height, table.total, row.height, COLORS.groupFill);
  else if (stripe) flow.rectangle(table.x, top - row.height, table.total, row.height, COLORS.stripe);
  if (row.row.style === 'total') {
    flow.currentPage.drawLine({ start: { x: table.x, y: top }, end: { x: table.x + table.total, y: top }, thickness: 0.8, color: COLORS.ink });
  }
  drawCells(flow, columns, table, row, top);
}

/** A shaded box with a bold heading line and wrapped text: what the reader must not miss. */
export function drawCallout(flow: PageFlow, heading: string, text: string): void {
  const inner = flow.width - 24;
  const lines = text === '' ? [] : wrapText(flow.fonts.regular, SIZES.body, text, inner);
  const headingSize = SIZES.section;
  const height = 12 + headingSize + (lines.length > 0 ? 6 + lines.length * SIZES.body * 1.35 : 0) + 10;
  flow.space(6);
  const top = flow.reserve(height);
  flow.rectangle(flow.left, top - height, flow.width, height, COLORS.highlight);
  flow.currentPage.drawRectangle({ x: flow.left, y: top - height, width: 3, height, color: COLORS.band });
  flow.text(truncate(flow.fonts.bold, headingSize, heading, inner), flow.left + 12, top - 12 - headingSize + 2, { font: flow.fonts.bold, size: headingSize });
  lines.forEach((line, index) => flow.text(line, flow.left + 12, top - 12 - headingSize - 6 - SIZES.body - index * SIZES.body * 1.35 + 2));
  flow.space(14);
}

/** Lines to sign on, side by side, each with its caption under it. */
export function drawSignatureLines(flow: PageFlow, captions: string[]): void {
  const gap = 24;
  const width = (flow.width - gap * (captions.length - 1)) / captions.length;
  const top = flow.reserve(44);
  captions.forEach((caption, index) => {
    const x = flow.left + index * (width + gap);
    flow.currentPage.drawLine({ start: { x, y: top - 28 }, end: { x: x + width, y: top - 28 }, thickness: 0.7, color: COLORS.ink });
    flow.text(truncate(flow.fonts.regular, SIZES.small, caption, width), x, top - 38, { size: SIZES.small, color: COLORS.muted });
  });
}
