/** The bind move's wiring: search shows the quote Submitted, integrators hear policy.bound. */
import { eventsAtBind } from '../events/joins-moves.js';
import { bindPolicy, type BindWiring } from '../lifecycle/bind.js';
import { wired } from '../lifecycle/joining.js';
import { policiesAtBind } from '../policies/joins-moves.js';
import { searchAtBind } from '../search/joins-moves.js';

export const bindWiring: BindWiring = { bind: [policiesAtBind, searchAtBind, eventsAtBind] };

export const bindMove = /* @__PURE__ */ wired(bindWiring, bindPolicy);
