/** The issue move's wiring: the policies area commits the revision (recording the commission rate fixed), billing opens the term's account and invoices, documents request the Declaration, search shows it Active, integrators hear policy.issued. */
import { booksAtIssue, booksReadAhead } from '../books/joins-moves.js';
import { commissionsAtIssue } from '../commissions/joins-moves.js';
import { billingAtIssue } from '../billing/joins-moves.js';
import { declarationAtIssue } from '../documents/joins-moves.js';
import { eventsAtIssue } from '../events/joins-moves.js';
import { issuePolicy, type IssueWiring } from '../lifecycle/issue.js';
import { wired } from '../lifecycle/joining.js';
import { policiesAtIssue } from '../policies/joins-moves.js';
import { searchAtIssue } from '../search/joins-moves.js';

export const issueWiring: IssueWiring = { commit: [policiesAtIssue], issue: [billingAtIssue, declarationAtIssue, searchAtIssue, eventsAtIssue, commissionsAtIssue, booksAtIssue], readAhead: [booksReadAhead] };

export const issueMove = /* @__PURE__ */ wired(issueWiring, issuePolicy);
