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
 *   kit.choose(moves)              play one move, or narrow the move list to several
 *   kit.picked                     the key of the place picked (opts.pick), or null
 *   kit.h(tag, attrs, ...kids)     an HTML element; kit.svg(tag, attrs, ...kids) an SVG one
 *   kit.esc(text), kit.ink(colour) HTML escaping; readable text colour on a colour
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
   * are names, other lists are joined with ", ". Format specs in a template are ignored. */
  function renderMessage(cat, names, id, params, fallback) {
    const tpl = cat[id];
    if (tpl === undefined) return fallback !== undefined ? fallback : id;
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
    return tpl.replace(/\{\{|\}\}|\{(\w+)[^}]*\}/g, (m, k) =>
      (m === "{{" ? "{" : m === "}}" ? "}" : val(k, (params || {})[k])));
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
   * to, or null), choose(texts, pick) and unpick(). */
  function create(root, payload, env) {
    const seatsIn = payload.seats || [];
    const names = seatsIn.map((s) => s.name);
    const pending = payload.pending || [];
    const legal = payload.legal || [];
    const ui = env.ui || ((k) => k);
    const places = [];
    const filter = env.filter ? new Set(env.filter) : null;
    const picked = env.picked === undefined ? null : env.picked;

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
        (o.pick !== undefined && picked === o.pick ? " bk-picked" : ""));
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
        cls: " clickable" + (narrowed ? " bk-target" : "") + (on ? " bk-picked" : ""),
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
      root.addEventListener("click", (e) => {
        const n = target(e);
        if (n && root.contains(n)) { e.preventDefault(); e.stopPropagation(); root._bkActivate(n); }
      });
      root.addEventListener("keydown", (e) => {
        if (e.key !== "Enter" && e.key !== " " && e.key !== "Spacebar") return;
        const n = target(e);
        if (n && root.contains(n)) { e.preventDefault(); root._bkActivate(n); }
      });
    }
    if (root) root._bkActivate = activate;  // the newest kit of this root answers

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

  window.BoardKit = { create, renderMessage, focusKey, refocus, esc, ink, fill, h, svg };
})();
