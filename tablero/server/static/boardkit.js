/* boardkit.js — what every board needs besides its own drawing. Plain ES2020, no build step.
 *
 * The table page loads app.js, this file, then the game's board.js. For every drawing of the
 * table app.js makes one kit from the viewer's payload and calls
 *
 *     window.TableroBoards[gameId].render(root, payload, kit)
 *
 * so a board only draws: it asks the kit for seats (names, colours, who is to act, which bot
 * is thinking), for words (the game's message catalogue in the player's language) and for the
 * legal moves of a place it draws, and registers that place; the kit makes it clickable and
 * keyboard-operable, and plays the move (one move) or narrows the move list (several).
 *
 * The kit (see docs/web.md):
 *   kit.lang, kit.data (Game.table_data), kit.view, kit.viewer, kit.pending, kit.result
 *   kit.legal                      [{text, label, action: {kind, ...arguments}}] of the viewer
 *   kit.log                        the viewer's whole log: [{i, text, msg: {id, params}}]
 *   kit.words(tables)              tables[lang] || tables.en (a board's own labels)
 *   kit.fill(template, params)     "{a} of {b}" with params
 *   kit.msg(id, params, fallback)  a catalogue message rendered (seat numbers become names)
 *   kit.message(m)                 the same for a {id, params} object (a log line's msg)
 *   kit.ref(id, params)            a nested message as a parameter of another message
 *   kit.seat(i), kit.seats         {index, name, letter, colour, ink, bot, me, pending, thinking}
 *   kit.chip(i, opts)              a seat chip (DOM); kit.chipHTML(i, opts) the same as HTML
 *   kit.dots(), kit.dotsHTML()     the "bot is thinking" mark on its own
 *   kit.lastLines()                the log lines of the newest entry (what just happened)
 *   kit.moves(match)               legal moves whose action matches (see below)
 *   kit.place(node, match, opts)   register a drawn place (DOM or SVG node); returns its moves
 *   kit.placeAttrs(match, opts)    the same for HTML strings: {moves, cls, attrs}
 *   kit.choose(moves)              play one move (or select it for confirmation: the player's
 *                                  "confirm moves" setting), or narrow the move list to several
 *   kit.picked                     the key of the place picked (opts.pick), or null
 *   kit.selected                   the move waiting for confirmation (its text), or null; the
 *                                  places holding it are marked (class bk-selected)
 *   kit.h(tag, attrs, ...kids)     an HTML element; kit.svg(tag, attrs, ...kids) an SVG one
 *   kit.esc(text), kit.ink(colour) HTML escaping; readable text colour on a colour
 *   kit.rulesLink(anchor, label)   a small "?" link to the game's rules page at #anchor (new tab);
 *                                  kit.rulesLinkHTML(...) the same as HTML, kit.rulesHref(anchor) its address
 *
 * A match is a pattern object ({kind: "place", area: "galicia"}: every key equal), an array
 * of patterns (any of them), a predicate (action, move) => bool, or an array of moves.
 */
"use strict";
(function () {
  const SVGNS = "http://www.w3.org/2000/svg";

  // ---------------------------------------------------------------- small helpers
  function esc(s) {
    return String(s === null || s === undefined ? "" : s).replace(/[&<>"']/g, (c) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }

  /* Dark or light text, whichever reads better on `hex` (WCAG contrast). */
  function ink(hex) {
    const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
    if (!m) return "#111";
    const lin = (x) => {
      const c = parseInt(x, 16) / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    };
    const lum = 0.2126 * lin(m[1]) + 0.7152 * lin(m[2]) + 0.0722 * lin(m[3]);
    return (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) ? "#111" : "#fff";
  }

  function fill(template, params) {
    return String(template).replace(/\{(\w+)\}/g, (m, k) =>
      (params && params[k] !== undefined && params[k] !== null ? String(params[k]) : m));
  }

  function setAttrs(node, attrs, svg) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") { if (svg) node.setAttribute("class", v); else node.className = v; }
      else if (k === "text") node.textContent = v;
      else if (k === "style" && typeof v === "object") {
        for (const [p, x] of Object.entries(v)) {
          if (p.startsWith("--")) node.style.setProperty(p, x); else node.style[p] = x;
        }
      }
      else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
  }
  function append(node, kids) {
    for (const c of kids.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }
  function h(tag, attrs, ...kids) {
    const n = document.createElement(tag);
    setAttrs(n, attrs, false);
    return append(n, kids);
  }
  function svg(tag, attrs, ...kids) {
    const n = document.createElementNS(SVGNS, tag);
    setAttrs(n, attrs, true);
    return append(n, kids);
  }
  function addClass(node, cls) {
    const cur = node.getAttribute("class") || "";
    node.setAttribute("class", (cur + " " + cls).trim());
  }

  // ---------------------------------------------------------------- messages
  /* A catalogue message as tablero.core.messages.Translator renders it: nested messages
   * first, an int under `seat` / `*_seat` is that seat's name, lists under `seats` / `*_seats`
   * are names, other lists are joined with ", ". Templates: `{x}`, `{{` / `}}`,
   * `{n:plural:ONE|OTHER}` (ONE if n is 1; a list counts its items; `#` is the number) and
   * `{x:select:K=TEXT|...|other=TEXT}` (a nested message by its id, else String(value)); the
   * texts may hold further placeholders. Other format specs are ignored (plain value). */
  const parsedTemplates = new Map();

  function closingBrace(text, i) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      if (text[j] === "{") depth++;
      else if (text[j] === "}" && --depth === 0) return j;
    }
    return -1;
  }

  function splitTop(body, sep) {
    const parts = [];
    let depth = 0, start = 0;
    for (let j = 0; j < body.length; j++) {
      const c = body[j];
      if (c === "{") depth++;
      else if (c === "}") depth--;
      else if (c === sep && depth === 0) { parts.push(body.slice(start, j)); start = j + 1; }
    }
    parts.push(body.slice(start));
    return parts;
  }

  function parseField(content) {
    const m = /^(\w+)(?::(plural|select):([\s\S]*))?/.exec(content);
    if (!m) return { lit: "{" + content + "}" };
    if (m[2] === "plural") {
      const [one, other] = splitTop(m[3], "|");
      return { plural: m[1], one: parseTemplate(one || "", true), other: parseTemplate(other === undefined ? one || "" : other, true) };
    }
    if (m[2] === "select") {
      const cases = new Map();
      let other = [];
      for (const part of splitTop(m[3], "|")) {
        const eq = part.indexOf("=");
        if (eq < 0) continue;
        const key = part.slice(0, eq).trim(), nodes = parseTemplate(part.slice(eq + 1), true);
        if (key === "other") other = nodes; else if (!cases.has(key)) cases.set(key, nodes);
      }
      return { select: m[1], cases, other };
    }
    return { field: m[1] };
  }

  /* A template as literal strings and placeholder nodes (`branch`: inside a plural/select). */
  function parseTemplate(text, branch) {
    const nodes = [];
    let buf = "";
    const flush = () => { if (buf) { nodes.push(buf); buf = ""; } };
    for (let i = 0; i < text.length;) {
      const c = text[i];
      if ((c === "{" || c === "}") && text[i + 1] === c) { buf += c; i += 2; continue; }
      if (c === "{") {
        const j = closingBrace(text, i);
        if (j < 0) { buf += text.slice(i); break; }
        flush();
        nodes.push(parseField(text.slice(i + 1, j)));
        i = j + 1;
      } else if (c === "#" && branch) {
        flush(); nodes.push({ hash: true }); i++;
      } else { buf += c; i++; }
    }
    flush();
    return nodes;
  }

  const numberText = (v) => (Array.isArray(v) ? String(v.length) : typeof v === "boolean" ? (v ? "True" : "False")
    : v === null || v === undefined || typeof v === "object" ? "" : String(v));
  const isOne = (v) => (Array.isArray(v) ? v.length === 1 : v === 1 || v === "1");
  const selectKey = (v) => {
    if (v && typeof v === "object" && !Array.isArray(v) && v.message) return v.message.id;
    if (v === null || v === undefined || Array.isArray(v) || typeof v === "object") return "";
    if (typeof v === "boolean") return v ? "True" : "False";
    return String(v);
  };

  function renderMessage(cat, names, id, params, fallback) {
    const tpl = cat[id];
    if (tpl === undefined) return fallback !== undefined ? fallback : id;
    params = params || {};
    const seatName = (i) => (names[i] !== undefined ? names[i] : fill(cat["core.seat"] || "#{n}", { n: i + 1 }));
    const val = (k, v) => {
      if (v && typeof v === "object" && !Array.isArray(v) && v.message) {
        return renderMessage(cat, names, v.message.id, v.message.params);
      }
      if (Array.isArray(v)) {
        if (k === "seats" || k.endsWith("_seats")) return v.filter((x) => typeof x === "number").map(seatName).join(", ");
        return v.map((x) => val("", x)).join(", ");
      }
      if (typeof v === "boolean") return v ? "True" : "False";
      if (typeof v === "number" && (k === "seat" || k.endsWith("_seat"))) return seatName(v);
      return v === null || v === undefined ? "" : String(v);
    };
    let nodes = parsedTemplates.get(tpl);
    if (!nodes) { nodes = parseTemplate(tpl, false); parsedTemplates.set(tpl, nodes); }
    const render = (list, number) => list.map((n) => {
      if (typeof n === "string") return n;
      if (n.lit !== undefined) return n.lit;
      if (n.field !== undefined) return val(n.field, params[n.field]);
      if (n.plural !== undefined) {
        const v = params[n.plural];
        return render(isOne(v) ? n.one : n.other, numberText(v));
      }
      if (n.select !== undefined) {
        const key = selectKey(params[n.select]);
        return render(n.cases.has(key) ? n.cases.get(key) : n.other, number);
      }
      return number === undefined ? "#" : number;
    }).join("");
    return render(nodes, undefined);
  }

  // ---------------------------------------------------------------- moves
  function matcher(match) {
    if (typeof match === "function") return (m) => !!match(m.action || {}, m);
    if (Array.isArray(match)) {
      if (match.length && match[0] && typeof match[0].text === "string") {
        const texts = new Set(match.map((m) => m.text));
        return (m) => texts.has(m.text);
      }
      const any = match.map(matcher);
      return (m) => any.some((f) => f(m));
    }
    if (match && typeof match === "object") {
      const keys = Object.keys(match);
      return (m) => {
        const a = m.action || {};
        return keys.every((k) => a[k] === match[k] || String(a[k]) === String(match[k]));
      };
    }
    return () => false;
  }

  // ---------------------------------------------------------------- the kit
  /* env (from app.js): lang, cat (catalogue), data (table data), log (this viewer's lines),
   * ui(key, params) (the client's own words), picked, filter (texts the move list is narrowed
   * to, or null), selected (the text of a move waiting for confirmation, or null),
   * choose(texts, pick) and unpick(). */
  function create(root, payload, env) {
    const seatsIn = payload.seats || [];
    const names = seatsIn.map((s) => s.name);
    const pending = payload.pending || [];
    const legal = payload.legal || [];
    const ui = env.ui || ((k) => k);
    const places = [];
    const filter = env.filter ? new Set(env.filter) : null;
    const picked = env.picked === undefined ? null : env.picked;
    // The move picked and waiting for the player's confirmation (app.js): its places are marked.
    const selected = env.selected === undefined ? null : env.selected;
    const holdsSelected = (ms) => selected !== null && ms.some((m) => m.text === selected);

    const seats = seatsIn.map((s, i) => {
      const colour = s.colour || "#999999";
      const isPending = pending.includes(i) && !payload.result;
      return {
        index: i, name: s.name || "#" + (i + 1), letter: s.letter || String.fromCharCode(65 + i),
        colour, ink: ink(colour), bot: s.bot || null, me: i === payload.viewer,
        pending: isPending, thinking: isPending && !!s.bot,
      };
    });
    function seat(i) {
      return seats[i] || { index: i, name: "#" + (i + 1), letter: "?", colour: "#999999", ink: "#111",
        bot: null, me: false, pending: false, thinking: false };
    }

    function chipParts(i, opts) {
      const s = seat(i);
      let cls = "bk-chip" + (s.pending ? " bk-pending" : "") + (s.thinking ? " bk-thinking" : "") +
        (s.me ? " bk-me" : "") + (opts.name ? " bk-named" : "") + (opts.cls ? " " + opts.cls : "");
      const tip = s.name + (s.thinking ? " — " + ui("seat.thinking") : s.pending ? " — " + ui("seat.to_act") : "");
      return { s, cls, tip };
    }
    /* A seat chip: the seat's letter on its colour, optionally its name; marked while the
     * seat is to act, with moving dots while a bot thinks. opts: {name, cls}. */
    /* Moving dots: a bot is thinking. */
    function dots() {
      return h("span", { class: "bk-dots", role: "img", "aria-label": ui("seat.thinking") }, h("i"), h("i"), h("i"));
    }
    function dotsHTML() {
      return `<span class="bk-dots" role="img" aria-label="${esc(ui("seat.thinking"))}"><i></i><i></i><i></i></span>`;
    }
    function chip(i, opts) {
      const o = opts || {};
      const { s, cls, tip } = chipParts(i, o);
      return h("span", { class: cls, style: { "--seat": s.colour, "--seat-ink": s.ink }, title: tip },
        h("span", { class: "bk-letter", "aria-hidden": o.name ? "true" : null }, s.letter),
        o.name ? h("span", { class: "bk-name" }, s.name) : null,
        s.thinking ? dots() : null);
    }
    function chipHTML(i, opts) {
      const o = opts || {};
      const { s, cls, tip } = chipParts(i, o);
      return `<span class="${esc(cls)}" style="--seat:${esc(s.colour)};--seat-ink:${s.ink}" title="${esc(tip)}">` +
        `<span class="bk-letter"${o.name ? ' aria-hidden="true"' : ""}>${esc(s.letter)}</span>` +
        (o.name ? `<span class="bk-name">${esc(s.name)}</span>` : "") + (s.thinking ? dotsHTML() : "") + "</span>";
    }

    /* The log lines of the newest record entry this viewer was told of (what just happened). */
    function lastLines() {
      const log = (env.log || []).filter((l) => !l.note);  // a table's note (a hint asked) is no move
      if (!log.length) return [];
      const i = log[log.length - 1].i;
      let k = log.length;
      while (k > 0 && log[k - 1].i === i) k--;
      return log.slice(k);
    }

    function moves(match) {
      const f = matcher(match);
      return legal.filter(f);
    }
    /* The moves of a place, narrowed to the picked place's moves where opts.narrow says so
     * and some of them fit (a picked hand card, then a field it may go to). */
    function placeMoves(match, o) {
      const ms = moves(match);
      if (o.narrow && picked !== null && filter && ms.length) {
        const only = ms.filter((m) => filter.has(m.text));
        if (only.length) return { ms: only, narrowed: true };
      }
      return { ms, narrowed: false };
    }
    function ariaOf(ms, o) {
      const label = o.label || "";
      if (ms.length === 1) return label ? label + ": " + ms[0].label : ms[0].label;
      return label || ms.map((m) => m.label).join(" / ");
    }
    /* Register a drawn place: it becomes a button for its legal moves (none: left as it is).
     * opts: {label, pick: key (a first activation picks it, a second puts it back),
     *        narrow: true (only the picked place's moves while one is picked)}. */
    function place(node, match, opts) {
      const o = opts || {};
      const { ms, narrowed } = placeMoves(match, o);
      if (!ms.length) return ms;
      const i = places.push({ moves: ms, pick: o.pick === undefined ? null : o.pick }) - 1;
      addClass(node, "clickable" + (narrowed ? " bk-target" : "") +
        (o.pick !== undefined && picked === o.pick ? " bk-picked" : "") + (holdsSelected(ms) ? " bk-selected" : ""));
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", ariaOf(ms, o));
      node.setAttribute("data-bk-place", String(i));
      if (o.pick !== undefined) node.setAttribute("aria-pressed", String(picked === o.pick));
      return ms;
    }
    function placeAttrs(match, opts) {
      const o = opts || {};
      const { ms, narrowed } = placeMoves(match, o);
      if (!ms.length) return { moves: ms, cls: "", attrs: "" };
      const i = places.push({ moves: ms, pick: o.pick === undefined ? null : o.pick }) - 1;
      const on = o.pick !== undefined && picked === o.pick;
      return {
        moves: ms,
        cls: " clickable" + (narrowed ? " bk-target" : "") + (on ? " bk-picked" : "") +
          (holdsSelected(ms) ? " bk-selected" : ""),
        attrs: ` tabindex="0" role="button" aria-label="${esc(ariaOf(ms, o))}" data-bk-place="${i}"` +
          (o.pick !== undefined ? ` aria-pressed="${on}"` : ""),
      };
    }
    function choose(ms, pick) {
      const texts = (ms || []).map((m) => (typeof m === "string" ? m : m.text));
      env.choose(texts, pick === undefined ? null : pick);
    }
    function activate(node) {
      const p = places[Number(node.getAttribute("data-bk-place"))];
      if (!p) return;
      if (p.pick !== null && picked === p.pick) { env.unpick(); return; }
      choose(p.moves, p.pick === null ? undefined : p.pick);
    }
    if (root && !root.dataset.bkWired) {
      // One listener per board root for every place, drawn as DOM, SVG or HTML text alike.
      root.dataset.bkWired = "1";
      const target = (e) => (e.target && e.target.closest ? e.target.closest("[data-bk-place]") : null);
      // A "?" rules link (rulesLinkHTML) inside a place opens the rules, never plays: its clicks and
      // keys stop here (no inline handler on the link: the server's CSP runs none).
      const help = (e) => (e.target && e.target.closest ? e.target.closest("a.bk-help[data-rules]") : null);
      root.addEventListener("click", (e) => {
        if (help(e)) { e.stopPropagation(); return; }
        const n = target(e);
        if (n && root.contains(n)) { e.preventDefault(); e.stopPropagation(); root._bkActivate(n); }
      });
      root.addEventListener("keydown", (e) => {
        if (help(e)) { e.stopPropagation(); return; }
        if (e.key !== "Enter" && e.key !== " " && e.key !== "Spacebar") return;
        const n = target(e);
        if (n && root.contains(n)) { e.preventDefault(); root._bkActivate(n); }
      });
    }
    if (root) root._bkActivate = activate;  // the newest kit of this root answers

    /* "What does this do?": a small "?" link to one entry of the game's rules page
     * (/rules/<game>?lang=<lang>#<anchor>, tablero/server/rules_pages.py), opened in a new tab.
     * It never plays a move: its clicks and keys stop at the link, even inside a clickable place. */
    const rulesGame = payload.game || (document.body && document.body.dataset.game) || "";
    function rulesHref(anchor) {
      return "/rules/" + encodeURIComponent(rulesGame) + "?lang=" + encodeURIComponent(env.lang || "en") +
        (anchor ? "#" + encodeURIComponent(anchor) : "");
    }
    function rulesTip(label) { return (label ? label + ": " : "") + ui("rules.help"); }
    function rulesLink(anchor, label) {
      const tip = rulesTip(label);
      const a = h("a", { class: "bk-help", href: rulesHref(anchor), target: "_blank", rel: "noopener",
        title: tip, "aria-label": tip, "data-rules": anchor }, "?");
      const stop = (e) => e.stopPropagation();
      a.addEventListener("click", stop);
      a.addEventListener("keydown", stop);
      return a;
    }
    function rulesLinkHTML(anchor, label) {
      const tip = esc(rulesTip(label));
      return `<a class="bk-help" href="${esc(rulesHref(anchor))}" target="_blank" rel="noopener" title="${tip}" ` +
        `aria-label="${tip}" data-rules="${esc(anchor)}">?</a>`;  // its clicks stop at the board's root (above)
    }

    return {
      lang: env.lang,
      data: env.data || {},
      view: payload.view || {},
      viewer: payload.viewer === undefined ? null : payload.viewer,
      pending,
      result: payload.result || null,
      legal,
      log: env.log || [],
      picked,
      selected,
      words: (tables) => tables[env.lang] || tables.en,
      fill,
      msg: (id, params, fallback) => renderMessage(env.cat || {}, names, id, params || {}, fallback),
      message: (m) => (m ? renderMessage(env.cat || {}, names, m.id, m.params || {}) : ""),
      ref: (id, params) => ({ message: { id, params: params || {} } }),
      has: (id) => (env.cat || {})[id] !== undefined,
      seats,
      seat,
      chip,
      chipHTML,
      dots,
      dotsHTML,
      lastLines,
      moves,
      place,
      placeAttrs,
      choose,
      h,
      svg,
      esc,
      ink,
      rulesHref,
      rulesLink,
      rulesLinkHTML,
    };
  }

  /* Keep keyboard focus on "the same" place across a redraw (same aria-label). */
  function focusKey(root) {
    const a = document.activeElement;
    return a && root && root.contains(a) && a.getAttribute ? a.getAttribute("aria-label") : null;
  }
  function refocus(root, key) {
    if (!key || !root) return;
    const again = [...root.querySelectorAll("[data-bk-place]")].find((n) => n.getAttribute("aria-label") === key);
    if (again && again.focus) again.focus();
  }

  /* A log line ({text, msg}) rendered now from its message with these seat names (a seat
   * named after the line was made is named in it too); its server text if the catalogue lacks it. */
  function renderLine(cat, line, names) {
    const m = line.msg;
    return m && cat[m.id] !== undefined ? renderMessage(cat, names, m.id, m.params || {}, line.text) : line.text;
  }

  window.BoardKit = { create, renderMessage, renderLine, focusKey, refocus, esc, ink, fill, h, svg };
})();

/* ---------------------------------------------------------------- animations
 * BoardKit.animate: pieces and cards move to where they went (FLIP), a short glide of ~0.3 s
 * after each update of the same view; skippable (a click or key press, or the next update,
 * finishes them at once); none with the system's "reduce motion" or the table's setting off
 * (localStorage `tablero:anim` = "off").
 *
 * A board opts in with attributes on what it draws (DOM or SVG alike, HTML text too):
 *   data-anim="KEY"        a component's stable identity (a card "card-3B", the King "king").
 *                          Drawn before and after at another place: it glides from the old place.
 *   data-anim-from="K1 K2" for an element that is new: where it comes from (the first of these
 *                          keys that was drawn before: the deck, the seat's hand); else it fades in.
 *   data-anim-n="3"        with data-anim-pool="P1 P2": a stack of identical pieces (a region's
 *   data-anim-pool="P"     caballeros of one seat, a seat's court). Where a pool's counts went down
 *                          in one place and up in another, a piece flies between them.
 *   data-anim-frame="NAME" on a container (a map, a seat's panel): its elements are compared
 *                          within it when both places are in the same frame, so a whole panel
 *                          pushed down by a new line above it does not make its contents glide.
 *   data-anim-origin="KEY" instead of data-anim: a place things come from or go to (a deck, a
 *                          hand, a counter), never animated itself (a piece flies over it).
 * app.js: `const m = BoardKit.animate.before(oldBoard)` before the board is replaced, then
 * `BoardKit.animate.after(newBoard, m, viewKey, version)` once the table is drawn: only a new
 * version of the same view animates (never the first drawing, a seat switch or a redraw of the
 * same position).
 */
(function () {
  "use strict";
  const STORE = "tablero:anim";
  const options = { duration: 320, fade: 240, easing: "cubic-bezier(.2,.8,.3,1)", max: 60 };
  const live = new Set();  // running flights: {anim, done}

  function reduced() {
    try { return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches); }
    catch (e) { return false; }
  }
  /* The player's setting (on unless switched off on this device). */
  function setting() {
    try { return localStorage.getItem(STORE) !== "off"; } catch (e) { return true; }
  }
  function setEnabled(on) {
    try { localStorage.setItem(STORE, on ? "on" : "off"); } catch (e) { /* storage refused: stays as it is */ }
    if (!on) stop();
  }
  function enabled() {
    return setting() && !reduced() && typeof Element !== "undefined" && typeof Element.prototype.animate === "function";
  }

  /* Finish every running animation at once (the pieces stand where they went). */
  function stop() {
    for (const f of Array.from(live)) {
      try { f.anim.finish(); } catch (e) { try { f.anim.cancel(); } catch (e2) { /* gone */ } }
      f.done();
    }
    live.clear();
  }
  if (typeof document !== "undefined") {
    const skip = () => { if (live.size) stop(); };
    document.addEventListener("pointerdown", skip, true);
    document.addEventListener("keydown", skip, true);
  }

  const words = (s) => String(s || "").split(/\s+/).filter(Boolean);

  /* The keyed elements of a board in document order; a key drawn twice gets "#2", "#3"... */
  function keyed(root) {
    const out = new Map();
    for (const el of root.querySelectorAll("[data-anim], [data-anim-origin]")) {
      let k = el.getAttribute("data-anim") || el.getAttribute("data-anim-origin");
      if (!k) continue;
      if (out.has(k)) { let i = 2; while (out.has(k + "#" + i)) i++; k += "#" + i; }
      out.set(k, el);
    }
    return out;
  }

  /* Where each keyed element is: relative to the board and to its frame, its count and pools. */
  function measure(root) {
    const o = root.getBoundingClientRect();
    const frames = new Map(), items = new Map();
    for (const [k, el] of keyed(root)) {
      const r = el.getBoundingClientRect();
      if (!r.width && !r.height) continue;  // not shown
      const f = el.parentElement && el.parentElement.closest("[data-anim-frame]");
      let fr = null;
      if (f && root.contains(f)) {
        fr = frames.get(f);
        if (!fr) { fr = f.getBoundingClientRect(); frames.set(f, fr); }
      }
      const n = Number(el.getAttribute("data-anim-n"));
      items.set(k, {
        el, x: r.left - o.left, y: r.top - o.top, w: r.width, h: r.height,
        frame: fr ? f.getAttribute("data-anim-frame") : "", fx: fr ? r.left - fr.left : 0, fy: fr ? r.top - fr.top : 0,
        n: Number.isFinite(n) && n > 0 ? n : 0, pools: words(el.getAttribute("data-anim-pool")),
        origin: !el.hasAttribute("data-anim"),
      });
    }
    return items;
  }

  /* How long the running animations still take (ms). */
  function remaining() {
    let left = 0;
    for (const f of live) {
      const t = f.anim.effect && f.anim.effect.getComputedTiming();
      if (t && typeof f.anim.currentTime === "number") left = Math.max(left, t.endTime - f.anim.currentTime);
    }
    return left;
  }

  /* Before the board is replaced: note where everything is, then stop what runs (the pieces
   * jump to where they were going). Where pieces are in flight is noted too: a redraw of the
   * same position (a bot starts thinking, a seat comes back) lets them fly on from there. */
  function before(root) {
    const ok = root && root.isConnected && enabled() && root.dataset.animView &&
      !(typeof document !== "undefined" && document.hidden);
    const r = ok ? root.getBoundingClientRect() : null;
    if (!r || (!r.width && !r.height)) { stop(); return null; }
    const left = live.size ? remaining() : 0;
    const inflight = left > 30 ? measure(root) : null;
    stop();
    return { view: root.dataset.animView, version: root.dataset.animVersion, items: measure(root), inflight, left };
  }

  // ------------------------------------------------------------------ one flight
  const isSvg = (el) => typeof SVGElement !== "undefined" && el instanceof SVGElement;
  function outerSvg(el) {
    let s = el.ownerSVGElement;
    while (s && s.ownerSVGElement) s = s.ownerSVGElement;
    return s;
  }
  /* A screen distance in the user units of the element's parent (SVG): what CSS `translate` takes. */
  function userDelta(el, dx, dy) {
    const p = el.parentNode;
    const m = p && p.getScreenCTM ? p.getScreenCTM() : null;
    if (!m) return [dx, dy];
    const i = m.inverse();
    return [i.a * dx + i.c * dy, i.b * dx + i.d * dy];
  }
  /* Let an SVG's content be seen outside its box while a piece flies in from beside it. */
  function liftSvg(el) {
    const s = outerSvg(el);
    if (!s) return () => {};
    if (!s._bkLift) {  // the first flight over this SVG keeps its own style, the last one puts it back
      s._bkWas = { overflow: s.style.overflow, position: s.style.position, zIndex: s.style.zIndex };
      s.style.overflow = "visible";
      if (!s.style.position && getComputedStyle(s).position === "static") s.style.position = "relative";
      s.style.zIndex = "3";
    }
    s._bkLift = (s._bkLift || 0) + 1;
    let lifted = true;
    return () => {
      if (!lifted) return;
      lifted = false;
      if (--s._bkLift > 0) return;
      const was = s._bkWas;
      s.style.overflow = was.overflow; s.style.position = was.position; s.style.zIndex = was.zIndex;
    };
  }

  /* Animate `el` from where it was: dx, dy (screen px between the centres). o.zoom (HTML only):
   * how much bigger it was, the same both ways so text never stretches; o.fade: it comes in;
   * o.leave: the other way round, it flies off by dx, dy and fades out (a copy leaving for a
   * counter); o.duration; o.then: run when it ends or stops. An HTML element that would be cut
   * off on its way by a box of the board that clips its content flies as a copy above that box. */
  function glide(el, dx, dy, o) {
    o = o || {};
    const svgEl = isSvg(el);
    if (!svgEl && !o.copy && !o.leave) {
      const c = clipperAt(el, dx, dy);
      if (c) return ghost(el, dx, dy, Object.assign({}, o, { host: c.parentElement, hide: true }));
    }
    const [ux, uy] = svgEl ? userDelta(el, dx, dy) : [dx, dy];
    const zoom = o.zoom || 1, scale = !svgEl && Math.abs(zoom - 1) > 0.04;
    const away = { translate: ux.toFixed(1) + "px " + uy.toFixed(1) + "px" };
    if (scale) away.scale = zoom.toFixed(3);
    // one keyframe at the start: the element eases from there to where it stands now
    const frames = o.leave ? [{ offset: 0, translate: "0px 0px", opacity: 1 }, Object.assign({ offset: 1, opacity: 0 }, away)]
      : [Object.assign({ offset: 0 }, away, o.fade ? { opacity: 0.3 } : {})];
    const origin = el.style.transformOrigin;
    if (scale) el.style.transformOrigin = "center";
    const unlift = svgEl ? liftSvg(el) : () => {};
    return start(el, frames, o.duration || options.duration, () => {
      if (scale) el.style.transformOrigin = origin;
      unlift();
      if (o.then) o.then();
    });
  }
  /* In place: a new element with nowhere to come from fades in; a counter that changed pulses. */
  function inPlace(el, frame) {
    const svgEl = isSvg(el);
    const was = [el.style.transformOrigin, el.style.transformBox];
    el.style.transformOrigin = "center";
    if (svgEl) el.style.transformBox = "fill-box";
    return start(el, [Object.assign({ offset: 0 }, frame)], options.fade, () => {
      el.style.transformOrigin = was[0];
      if (svgEl) el.style.transformBox = was[1];
    });
  }
  const fadeIn = (el) => inPlace(el, { opacity: 0, scale: "0.75" });
  const pulse = (el) => inPlace(el, { scale: "1.25" });
  function start(el, frames, duration, after) {
    let anim;
    try { anim = el.animate(frames, { duration, easing: options.easing }); }
    catch (e) { after(); return null; }
    anim.id = "bk-anim";
    let ended = false;
    const f = {
      anim, done: () => {
        if (ended) return;
        ended = true; live.delete(f); after();
      },
    };
    anim.finished.then(f.done, f.done);  // ended, finished early or cancelled
    live.add(f);
    return f;
  }

  /* The outermost box of the board around `el` that clips its content and does not hold the point
   * dx, dy away from el's centre (where a flight starts or ends), or null. */
  let board = null;
  function clipperAt(el, dx, dy) {
    const r = el.getBoundingClientRect(), x = r.left + r.width / 2 + dx, y = r.top + r.height / 2 + dy;
    let out = null;
    for (let a = el.parentElement; a && board && a !== board && board.contains(a); a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
      const b = a.getBoundingClientRect();
      if (x < b.left || x > b.right || y < b.top || y > b.bottom) out = a;
    }
    return out;
  }

  /* A copy of `el` laid over it, flying: in from dx, dy (a piece joining a stack that was there
   * already), or o.leave: off to dx, dy (a piece going to a counter). o.host: the HTML element the
   * copy goes into (else beside el, or above the box that would cut it off); o.hide: el itself
   * is hidden until the copy lands (el flies, as a copy). */
  function ghost(el, dx, dy, o) {
    o = o || {};
    const g = el.cloneNode(true);
    for (const n of [g, ...g.querySelectorAll("*")]) {
      for (const a of ["id", "data-anim", "data-anim-origin", "data-anim-from", "data-anim-pool", "data-anim-n", "data-bk-place",
        "tabindex", "role", "aria-label", "aria-pressed", "title", "href"]) n.removeAttribute(a);
      if (n.classList) n.classList.remove("clickable", "bk-picked", "bk-target", "bk-selected", "last");
    }
    for (const a of g.querySelectorAll("a, title")) a.remove();
    g.setAttribute("aria-hidden", "true");
    g.classList.add("bk-ghost");
    g.style.pointerEvents = "none";
    let copy = g;
    if (isSvg(el)) {
      // into the outermost SVG (drawn above the rest), in the element's own user space
      const s = outerSvg(el);
      const p = el.parentNode;
      if (!s || !p || !p.getScreenCTM || !s.getScreenCTM()) return null;
      const m = s.getScreenCTM().inverse().multiply(p.getScreenCTM());
      copy = document.createElementNS("http://www.w3.org/2000/svg", "g");
      copy.setAttribute("transform", `matrix(${m.a},${m.b},${m.c},${m.d},${m.e},${m.f})`);
      copy.setAttribute("aria-hidden", "true");
      copy.setAttribute("class", "bk-ghost");
      copy.append(g);
      s.append(copy);
    } else {
      const r = el.getBoundingClientRect();
      Object.assign(g.style, { position: "absolute", left: "0px", top: "0px", margin: "0", boxSizing: "border-box",
        width: r.width + "px", height: r.height + "px", zIndex: "5" });
      const c = o.host ? null : clipperAt(el, dx, dy);
      const host = o.host || (c && c.parentElement);
      if (host) host.append(g); else el.after(g);
      const at = g.getBoundingClientRect();
      g.style.left = (r.left - at.left) + "px";
      g.style.top = (r.top - at.top) + "px";
    }
    const hidden = o.hide ? el.style.visibility : null;
    if (o.hide) el.style.visibility = "hidden";
    const f = glide(g, dx, dy, {
      copy: true, zoom: o.zoom, fade: o.hide ? o.fade : true, leave: o.leave, duration: o.duration,
      then: () => { copy.remove(); if (o.hide) el.style.visibility = hidden; if (o.then) o.then(); },
    });
    if (!f) { copy.remove(); if (o.hide) el.style.visibility = hidden; }
    return f;
  }

  /* The move that brings b (new) to where a (old) was, centre to centre: within a shared frame,
   * else within the board. */
  function offset(a, b) {
    const same = a.frame && a.frame === b.frame;
    return [(same ? a.fx - b.fx : a.x - b.x) + (a.w - b.w) / 2, (same ? a.fy - b.fy : a.y - b.y) + (a.h - b.h) / 2];
  }

  /* After the new board is drawn (and the rest of the table): animate what moved, came in, or
   * went from one stack to another. Returns how many animations started. */
  function after(root, snap, view, version) {
    if (!root) return 0;
    root.dataset.animView = String(view);
    root.dataset.animVersion = String(version);
    if (!snap || snap.view !== String(view) || !enabled() || !root.isConnected) return 0;
    board = root;
    if (snap.version === String(version)) return snap.inflight ? flyOn(snap, measure(root)) : 0;
    const old = snap.items, now = measure(root);
    const moved = new Set();
    let budget = options.max;
    const fly = (f) => { if (f) budget--; };
    // 1. the same component at another place
    for (const [k, b] of now) {
      const a = old.get(k);
      if (!a || a.origin || b.origin || budget <= 0) continue;
      const [dx, dy] = offset(a, b);
      if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;  // in place (a new size alone is no move)
      const zoom = b.w && b.h ? Math.sqrt((a.w / b.w) * (a.h / b.h)) : 1;
      fly(glide(b.el, dx, dy, { zoom: Math.min(2, Math.max(0.5, zoom)) }));
      moved.add(k);
    }
    // 2. stacks of identical pieces: from where a pool went down to where it went up
    const pools = new Map();
    const count = (items, side) => {
      for (const [k, it] of items) {
        for (const p of it.pools) {
          if (!pools.has(p)) pools.set(p, new Map());
          const e = pools.get(p).get(k) || { old: 0, now: 0 };
          e[side] = it.n;
          pools.get(p).set(k, e);
        }
      }
    };
    count(old, "old");
    count(now, "now");
    for (const m of pools.values()) {
      const src = [], dst = [];
      for (const [k, e] of m) {
        if (e.now < e.old && old.has(k)) src.push({ k, left: e.old - e.now });
        else if (e.now > e.old && now.has(k)) dst.push({ k, left: e.now - e.old });
      }
      for (const t of dst) {
        for (const s of src) {
          if (!s.left || !t.left || budget <= 0) continue;
          const n = Math.min(s.left, t.left);
          s.left -= n; t.left -= n;
          const a = old.get(s.k), b = now.get(t.k), piece = now.get(s.k);
          if (!b.origin) {
            const [dx, dy] = offset(a, b);
            if (!old.has(t.k) && !moved.has(t.k)) fly(glide(b.el, dx, dy, { fade: true }));  // a new stack: it comes over
            else fly(ghost(b.el, dx, dy, {}));  // a piece joins a stack that was there
          } else if (piece && !piece.origin) {
            const [dx, dy] = offset(b, piece);
            fly(ghost(piece.el, dx, dy, { leave: true }));  // a piece leaves its stack for a counter (the court, a hand)
          } else if (!moved.has(t.k)) fly(pulse(b.el));  // one counter to another: the one that grew swells
          moved.add(t.k);
        }
      }
    }
    // 3. new components: from where they came (the deck, a hand), else fading in
    for (const [k, b] of now) {
      if (old.has(k) || moved.has(k) || b.origin || budget <= 0) continue;
      const src = words(b.el.getAttribute("data-anim-from")).map((x) => old.get(x)).find(Boolean);
      if (src) {
        const [dx, dy] = offset(src, b);
        fly(glide(b.el, dx, dy, { fade: true }));
      } else fly(fadeIn(b.el));
    }
    return options.max - budget;
  }

  /* The same position drawn again while pieces were in flight: they fly on from where they were. */
  function flyOn(snap, now) {
    let n = 0;
    for (const [k, b] of now) {
      const a = snap.inflight.get(k);
      if (!a || b.origin || n >= options.max) continue;
      const [dx, dy] = offset(a, b);
      if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
      const zoom = b.w && b.h ? Math.sqrt((a.w / b.w) * (a.h / b.h)) : 1;
      if (glide(b.el, dx, dy, { zoom: Math.min(2, Math.max(0.5, zoom)), duration: snap.left })) n++;
    }
    return n;
  }

  window.BoardKit = window.BoardKit || {};
  window.BoardKit.animate = {
    before, after, stop, enabled, setting, setEnabled, reduced, options,
    running: () => live.size,
  };
})();
