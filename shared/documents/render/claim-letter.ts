/**
 * A claim's letter to the insured (acknowledgement, closing, denial, reservation of rights): the
 * addressee and the claim's particulars, the letter's text, its reason where it gives one, and
 * the pages that go with it (Florida's Homeowner Claims Bill of Rights) after it.
 */
import { PDFDocument } from 'pdf-lib';
import { addressLines, formatDocumentDate, singleLineAddress } from '../format.js';
import type { ClaimLetterDocument, ClaimLetterType } from '../model.js';
import { drawCallout, drawFieldGrid } from './blocks.js';
import { PageFlow } from './layout.js';

const PRODUCER = 'insurance-admin-service';

const REASON_HEADINGS: Record<ClaimLetterType, string> = {
  'Claim Acknowledgement': 'Note',
  Closing: 'Reason for closing',
  Denial: 'Reason for the denial',
  'Reservation of Rights': 'Why we reserve our rights',
  'Claim Payment': 'Note',
};

export async function renderClaimLetter(letter: ClaimLetterDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const issued = new Date(`${letter.issueDate}T00:00:00Z`);
  if (Number.isNaN(issued.getTime())) throw new RangeError(`issueDate ${letter.issueDate} is not a date`);
  pdf.setTitle(`${letter.type} ${letter.claimNumber}`);
  pdf.setAuthor(letter.carrier.name);
  pdf.setSubject(`${letter.type}, claim ${letter.claimNumber}, policy ${letter.policyNumber}`);
  pdf.setProducer(PRODUCER);
  pdf.setCreator(PRODUCER);
  pdf.setCreationDate(issued);
  pdf.setModificationDate(issued);
  const flow = await PageFlow.start(pdf, {
    carrierName: letter.carrier.name,
    carrierAddress: [singleLineAddress(letter.carrier.address), letter.carrier.phone].filter(Boolean).join('  |  '),
    title: letter.type,
    policyNumber: letter.claimNumber,
    numberLabel: 'Claim Number',
    footerNote: `${letter.carrier.name}  |  ${letter.type}  |  Claim ${letter.claimNumber}  |  ${formatDocumentDate(letter.issueDate)}`,
  });
  drawFieldGrid(flow, [
    { label: 'To', lines: [letter.addressee.name, ...addressLines(letter.addressee.mailingAddress)] },
    { label: 'Date', lines: [formatDocumentDate(letter.issueDate)] },
    { label: 'Your Agency', lines: [letter.producer?.agencyName ?? 'Direct', ...(letter.producer?.phone ? [letter.producer.phone] : [])] },
  ], 3);
  drawFieldGrid(flow, [
    { label: 'Claim Number', lines: [letter.claimNumber] },
    { label: 'Policy Number', lines: [letter.policyNumber] },
    { label: 'Date of Loss', lines: [formatDocumentDate(letter.lossDate)] },
    { label: 'Date Reported', lines: [formatDocumentDate(letter.reportedDate)] },
    { label: 'Cause of Loss', lines: [letter.peril] },
    { label: 'Location of Loss', lines: addressLines(letter.lossAddress) },
  ], 3);
  flow.space(6);
  flow.paragraph(`Dear ${letter.addressee.name},`);
  flow.space(4);
  for (const paragraph of letter.paragraphs) flow.paragraph(paragraph);
  if (letter.reason) drawCallout(flow, REASON_HEADINGS[letter.type], letter.reason);
  flow.space(8);
  flow.paragraph('Sincerely,');
  flow.paragraph(`Claims Department, ${letter.carrier.name}${letter.carrier.phone ? `, ${letter.carrier.phone}` : ''}`);
  if (letter.attachments.length > 0) flow.paragraph(`Enclosed: ${letter.attachments.map((attachment) => attachment.title).join('; ')}`, { size: 8.5 });
  for (const attachment of letter.attachments) {
    flow.newPage();
    flow.section(attachment.title);
    // A line in capitals ending in a colon is a heading of the attachment (YOU HAVE THE RIGHT TO:).
    for (const paragraph of attachment.paragraphs) flow.paragraph(paragraph, { bold: /^[A-Z ,'-]+:$/.test(paragraph) });
  }
  flow.finish();
  return pdf.save();
}
