/* tablero table part: the replay of a finished game. Plain JavaScript, no build step.
 *
 * Tablero.parts.replay(payload, ctx) gives the table's side panel a "Replay the game" button
 * once the game is over. The replay takes the page over the table (the table goes on running,
 * hidden, below it): the board as the chosen seat (or a spectator) saw it after any record
 * entry, drawn by the game's own board.js, the log up to there with the newest lines marked,
 * and the controls — step back and forth (◀ ▶, the keys ← →), jump by round or month (⏮ ⏭,
 * Page Up / Page Down, the list of rounds built from the log's section lines), start and end
 * (Home, End), a slider, the seat picker. The address bar follows (history.replaceState):
 * /game/ID?replay=K&seat=N opens the replay there, so it can be copied and sent.
 *
 * Positions come from GET /api/games/{id}/replay?seat=N&at=K&since=S&lang=xx
 * (tablero/server/replay.py): the position part of that seat's update then (view, legal,
 * pending, result), its log lines of entries S..K-1, where steps go (`steps`) and the rounds
 * (`sections`). The client keeps each seat's lines it has, so a step asks for the new ones only.
 */
"use strict";
(function () {
  const T = () => window.Tablero;
  const el = (...a) => T().util.el(...a);
  const t = (k, p) => T().util.t(k, p);

  /* The one replay of this page (there is one table per page). */
  const R = {
    open: false, ctx: null, seat: null, at: 0, data: null, error: "", seq: 0, auto: false,
    logs: {},          // "seat|lang" → {upto, lines}: the lines of entries below `upto` this client has
    root: null, ol: null, olKey: null,
  };

  function seatParam(seat) { return seat === null ? "spectator" : String(seat); }
  function logKey() { return seatParam(R.seat) + "|" + T().util.lang; }

  /* The address of this position: /game/ID?replay=K&seat=N (no seat: the spectator's view). */
  function address(at, seat) {
    const u = new URL(location.href);
    u.searchParams.set("replay", String(at));
    if (seat === null) u.searchParams.delete("seat"); else u.searchParams.set("seat", String(seat));
    return u.pathname + "?" + u.searchParams.toString() + u.hash;
  }
  function leaveAddress() {
    const u = new URL(location.href);
    u.searchParams.delete("replay");
    u.searchParams.delete("seat");
    const q = u.searchParams.toString();
    history.replaceState(history.state, "", u.pathname + (q ? "?" + q : "") + u.hash);
  }

  async function load(at) {
    const ctx = R.ctx;
    const key = logKey();
    const cache = R.logs[key] || (R.logs[key] = { upto: 0, lines: [] });
    const since = Math.min(cache.upto, at);  // lines below `upto` are here already
    const seq = ++R.seq;
    let data;
    try {
      data = await T().util.api("GET", "/api/games/" + encodeURIComponent(ctx.id) + "/replay?seat=" +
        seatParam(R.seat) + "&at=" + at + "&since=" + since + "&lang=" + T().util.lang);
    } catch (e) {
      if (seq === R.seq) { R.error = t("replay.error", { error: e.message }); draw(); }
      return;
    }
    if (data.log_since <= cache.upto) {  // merge: only lines this client does not have yet
      for (const line of data.log) if (line.i >= cache.upto) cache.lines.push(line);
      cache.upto = Math.max(cache.upto, data.at);
    }
    if (seq !== R.seq || !R.open) return;  // a newer request is on its way
    R.data = data;
    R.at = data.at;
    R.error = "";
    draw();
  }

  function open(ctx, at, seat) {
    R.ctx = ctx;
    R.open = true;
    R.seat = seat;
    R.at = at;
    R.data = null;
    R.error = "";
    load(at);
    draw();
  }

  function close() {
    R.open = false;
    R.seq++;
    if (R.root) R.root.remove();
    R.root = null; R.ol = null; R.olKey = null; R.barKey = null; R.bar = null; R.picks = null;
    const app = document.getElementById("app");
    if (app) app.hidden = false;
    leaveAddress();
    if (R.ctx) R.ctx.draw();
    const b = document.getElementById("replay-open"); if (b) b.focus();
  }

  // ------------------------------------------------------------------ where to go
  function go(at) {
    if (!R.data) return;
    const k = Math.max(0, Math.min(R.data.total, at));
    if (k === R.at && R.data.at === k) return;
    R.at = k;
    drawPosition();  // the controls follow at once; the board when the answer is in
    load(k);
  }
  function stepTo(dir) {
    const steps = R.data ? R.data.steps : [];
    if (dir > 0) { const s = steps.find(x => x > R.at); if (s !== undefined) go(s); }
    else { const s = steps.filter(x => x < R.at).pop(); if (s !== undefined) go(s); }
  }
  function sectionTo(dir) {
    if (!R.data) return;
    const ats = R.data.sections.map(s => s.at);
    if (dir > 0) { const s = ats.find(x => x > R.at); go(s !== undefined ? s : R.data.total); }
    else { const s = ats.filter(x => x < R.at).pop(); go(s !== undefined ? s : 0); }
  }
  /* The section (round, month) position `at` lies in: its index, or -1 before the first. */
  function sectionOf(at) {
    const secs = R.data ? R.data.sections : [];
    let k = -1;
    secs.forEach((s, i) => { if (s.at <= at) k = i; });
    return k;
  }

  // ------------------------------------------------------------------ drawing
  function names() { return (R.data ? R.data.seats : []).map(s => s.name); }

  /* The page of the replay: made once when it opens (header, controls bar, board, side), then
   * each answer redraws the board and the side; the controls are made again only when what they
   * offer changes (another seat steps elsewhere), so a slider being dragged or a focused button
   * stays where it is. */
  function draw() {
    if (!R.open) return;
    const app = document.getElementById("app");
    if (app) app.hidden = true;
    const ctx = R.ctx;
    const d = R.data;
    if (!R.root) {
      R.root = el("main", { class: "replay-mode", id: "replay", "aria-label": t("replay.title") });
      (app && app.parentNode ? app.parentNode : document.body).insertBefore(R.root, app ? app.nextSibling : null);
      const live = ctx.S.payloads[ctx.S.active];
      const title = live && live.title ? live.title : document.title.split(" — ")[0];
      R.bar = el("div", { class: "replay-bar", role: "toolbar", "aria-label": t("replay.controls") });
      R.picks = el("div", { class: "replay-picks" });
      R.board = el("section", { class: "board replay-board", id: "replay-board", "aria-label": t("table.board") });
      R.now = el("div", { class: "replay-now", id: "replay-now", role: "status", "aria-live": "polite" });
      R.side = el("aside", { class: "side replay-side" });
      R.err = el("p", { class: "error", role: "alert", id: "replay-error", hidden: true });
      R.barKey = null;
      R.root.append(
        el("header", { class: "top replay-top" },
          el("h1", {}, el("span", { class: "replay-home" }, el("a", { href: "/", class: "home" }, "tablero"), " · "),
            title, " · ", t("replay.title")),
          el("button", { type: "button", id: "replay-close", title: t("replay.close"), onclick: close },
            el("span", { "aria-hidden": "true" }, "✕ "), el("span", { class: "replay-close-text" }, t("replay.close")))),
        R.bar, R.picks, R.err,
        el("div", { class: "replay-body" }, el("div", { class: "replay-main" }, R.now, R.board), R.side));
    }
    R.err.hidden = !R.error;
    R.err.textContent = R.error;
    if (!d) { R.board.replaceChildren(el("p", { class: "loading" }, t("conn.connecting"))); return; }
    R.root.dataset.at = String(d.at);  // the position drawn (tests wait for it)
    R.root.dataset.seat = seatParam(d.viewer);

    const barKey = [seatParam(R.seat), d.lang, d.steps.length, d.sections.length, d.total].join("|");
    if (R.barKey !== barKey) {
      const a = document.activeElement;
      const focused = a && (R.bar.contains(a) || R.picks.contains(a)) ? a.id : null;
      R.bar.replaceChildren();
      R.picks.replaceChildren();
      drawControls(R.bar, R.picks);
      R.barKey = barKey;
      const f = focused && document.getElementById(focused); if (f) f.focus();
    }
    // The seat strip (who was to act, the scores then) and the board as that seat saw it.
    const payload = {
      viewer: d.viewer, version: d.at, seats: d.seats.map(s => Object.assign({}, s, { bot: null })),
      pending: d.pending, view: d.view, legal: [], result: d.result, lang: d.lang,
      log: currentLines(), clocks: {}, thinking: null, thought: {},
    };
    R.side.replaceChildren(...[seatStrip(payload), movesThen(d), logBox()].filter(Boolean));
    const motion = BoardKit.animate && BoardKit.animate.before(R.board);  // pieces glide as at the table
    R.board.replaceChildren();
    const presenter = (window.TableroBoards || {})[ctx.gameId];
    try {
      // The kit from boardkit.js, made as the table makes it but with the replay's log (for
      // kit.lastLines) and nothing to play: a replay never sends a move.
      const kit = BoardKit.create(R.board, payload, {
        lang: T().util.lang, cat: ctx.S.cat, data: ctx.S.tableData, log: payload.log, ui: t,
        filter: null, picked: null, selected: null, choose: () => {}, unpick: () => {},
      });
      if (presenter) presenter.render(R.board, payload, kit);
      else R.board.append(el("pre", {}, JSON.stringify(d.view, null, 1)));
      if (BoardKit.animate) BoardKit.animate.after(R.board, motion, "replay:" + seatParam(d.viewer), d.at);
    } catch (e) {
      R.board.append(el("p", { class: "error" }, "board: " + e.message));
      console.error(e);
    }
    drawPosition();
  }

  /* The log lines this client has of entries below the position. */
  function currentLines() {
    const cache = R.logs[logKey()];
    return cache ? cache.lines.filter(l => l.i < R.at) : [];
  }

  function seatStrip(p) {
    const v = p.view.public || p.view;
    const score = (i) => { for (const k of ["scores", "vp", "score"]) if (Array.isArray(v[k])) return v[k][i]; return null; };
    return el("ol", { class: "seatbar replay-seats", "aria-label": t("table.seats") }, p.seats.map((s, i) => el("li", {
      class: "seat seat-" + i + (p.pending.includes(i) ? " to-act" : "") + (i === p.viewer ? " me" : ""),
      style: "--seat:" + s.colour,
    },
      el("span", { class: "letter", "aria-hidden": "true" }, s.letter),
      el("span", { class: "name" }, s.name),
      score(i) !== null && score(i) !== undefined ? el("span", { class: "score", title: t("table.score") }, String(score(i))) : null,
      p.pending.includes(i) ? el("span", { class: "sr" }, t("table.to_act")) : null)));
  }

  /* The viewer's options at this point, when it was to decide (what else it could have done). */
  function movesThen(d) {
    if (!d.legal || !d.legal.length || d.viewer === null) return null;
    const name = d.seats[d.viewer].name;
    return el("details", { class: "replay-options", id: "replay-options" },
      el("summary", {}, t("replay.options", { name, n: d.legal.length })),
      el("ul", {}, d.legal.map(m => el("li", {}, m.label))));
  }

  function logBox() {
    const cache = R.logs[logKey()] || { lines: [] };
    const key = logKey() + "|" + cache.lines.length + "|" + names().join(",");
    if (R.olKey !== key) {  // the list is made again only when lines came in (or names changed)
      const nm = names();
      R.ol = el("ol", { class: "log replay-log", id: "replay-log", "aria-label": t("replay.log") },
        cache.lines.map((l, n) => {
          const li = el("li", { class: l.section ? "section" : null, "data-i": l.i },
            el("span", { class: "n", "aria-hidden": "true" }, String(n + 1)),
            el("span", { class: "t" }, BoardKit.renderLine(R.ctx.S.cat, l, nm)));
          if (l.section) {
            li.tabIndex = 0;  // a round header jumps there
            li.title = t("replay.jump_here");
            li.addEventListener("click", () => go(l.i + 1));
            li.addEventListener("keydown", (e) => { if (e.key === "Enter") go(l.i + 1); });
          }
          return li;
        }));
      R.ol.style.setProperty("--digits", String(String(cache.lines.length).length));
      R.olKey = key;
    }
    return el("div", { class: "log-box replay-log-box" }, el("h2", {}, t("replay.log")), R.ol);
  }

  /* The buttons' pictures (drawn: not every font has the media symbols ⏮ ⏭). */
  const ICONS = {
    first: "M2 3h2v10H2zM14 3 5 8l9 5z", prev: "M12 3 3 8l9 5z",
    next: "M4 3l9 5-9 5z", last: "M12 3h2v10h-2zM2 3l9 5-9 5z",
  };
  function button(id, icon, label, onclick) {
    return el("button", { type: "button", id, class: "replay-btn", title: label, "aria-label": label, onclick },
      BoardKit.svg("svg", { viewBox: "0 0 16 16", width: "16", height: "16", "aria-hidden": "true", focusable: "false" },
        BoardKit.svg("path", { d: ICONS[icon], fill: "currentColor" })));
  }

  function drawControls(bar, picks) {
    const d = R.data;
    const seatPick = el("select", { id: "replay-seat", "aria-label": t("replay.seat"),
      onchange: (e) => { R.seat = e.target.value === "spectator" ? null : Number(e.target.value); R.olKey = null; load(R.at); } },
    el("option", { value: "spectator", selected: R.seat === null }, t("replay.spectator")),
    d.seats.map((s, i) => el("option", { value: String(i), selected: R.seat === i }, s.letter + " · " + s.name)));
    const roundPick = el("select", { id: "replay-round", "aria-label": t("replay.jump"),
      onchange: (e) => go(Number(e.target.value)) },
    el("option", { value: "0" }, t("replay.setup")),
    d.sections.map(s => el("option", { value: String(s.at) }, s.text)),
    el("option", { value: String(d.total) }, t("replay.end")));
    const slider = el("input", { type: "range", id: "replay-slider", min: "0", max: String(d.steps.length - 1), step: "1",
      "aria-label": t("replay.slider"), oninput: (e) => go(d.steps[Number(e.target.value)]) });
    bar.append(
      el("div", { class: "replay-buttons" },
        button("replay-first", "first", t("replay.prev_section"), () => sectionTo(-1)),
        button("replay-prev", "prev", t("replay.prev"), () => stepTo(-1)),
        el("span", { class: "replay-pos", id: "replay-pos", role: "status" }),
        button("replay-next", "next", t("replay.next"), () => stepTo(1)),
        button("replay-last", "last", t("replay.next_section"), () => sectionTo(1))),
      slider);
    picks.append(
      el("label", {}, el("span", {}, t("replay.jump")), " ", roundPick),
      el("label", {}, el("span", {}, t("replay.seat")), " ", seatPick),
      el("button", { type: "button", id: "replay-copy", class: "link", onclick: copyLink }, t("replay.copy")),
      el("span", { class: "muted replay-copied", id: "replay-copied", role: "status" }));
  }

  async function copyLink() {
    const url = location.origin + address(R.at, R.seat);
    const note = document.getElementById("replay-copied");
    try { await navigator.clipboard.writeText(url); if (note) note.textContent = t("replay.copied"); }
    catch (e) { window.prompt(t("replay.copy"), url); }
  }

  /* What follows the position at once (before the board arrives): the counter, the buttons,
   * the slider, the round list, the log's marks, the line "what happened", the address bar. */
  function drawPosition() {
    const d = R.data;
    if (!d || !R.root) return;
    const at = R.at;
    const idx = d.steps.indexOf(at) >= 0 ? d.steps.indexOf(at) : d.steps.filter(x => x <= at).length - 1;
    const pos = document.getElementById("replay-pos");
    if (pos) pos.textContent = at === 0 ? t("replay.start") : t("replay.position", { n: idx, total: d.steps.length - 1 });
    const set = (id, off) => { const b = document.getElementById(id); if (b) b.disabled = off; };
    set("replay-prev", at <= 0); set("replay-first", at <= 0);
    set("replay-next", at >= d.total); set("replay-last", at >= d.total);
    const slider = document.getElementById("replay-slider"); if (slider && document.activeElement !== slider) slider.value = String(idx);
    const sec = sectionOf(at);
    const pick = document.getElementById("replay-round");
    if (pick) pick.value = at >= d.total ? String(d.total) : sec < 0 ? "0" : String(d.sections[sec].at);
    // The log: lines after the position are hidden; the last step's lines (the move and all it
    // set off) are marked.
    const lines = currentLines();
    const from = d.steps.filter(x => x < at).pop() || 0;
    if (R.ol) {
      let current = null;
      for (const li of R.ol.children) {
        const i = Number(li.dataset.i);
        li.hidden = i >= at;
        const cur = i >= from && i < at;
        li.classList.toggle("current", cur);
        if (cur) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
        if (cur && !current) current = li;
      }
      // The newest lines in the middle of the list (the list alone scrolls, never the page).
      if (current) requestAnimationFrame(() => {
        if (R.ol && current.isConnected) R.ol.scrollTop = Math.max(0, current.offsetTop - R.ol.clientHeight / 2);
      });
      else R.ol.scrollTop = 0;
    }
    const now = document.getElementById("replay-now");
    if (now) {
      const nm = names();
      const news = lines.filter(l => l.i >= from);
      now.replaceChildren(el("span", { class: "replay-now-label" }, at >= d.total ? t("replay.over") : t("replay.happened")),
        news.length ? el("ul", {}, news.map(l => el("li", { class: l.section ? "section" : null }, BoardKit.renderLine(R.ctx.S.cat, l, nm))))
          : el("p", {}, t("replay.nothing")));
    }
    history.replaceState(history.state, "", address(at, R.seat));
  }

  document.addEventListener("keydown", (e) => {
    if (!R.open || !R.data || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const keys = { ArrowLeft: () => stepTo(-1), ArrowRight: () => stepTo(1), PageUp: () => sectionTo(-1),
      PageDown: () => sectionTo(1), Home: () => go(0), End: () => go(R.data.total), Escape: close };
    const f = keys[e.key];
    if (f) { e.preventDefault(); e.stopImmediatePropagation(); f(); }
  }, true);

  /* For other parts (the end screen may offer the replay too): Tablero.replay.open(at, seat). */
  T().replay = { open: (at, seat) => open(R.ctx || T().ctx, at || 0, seat === undefined ? null : seat) };

  /* The call site in app.js's draw(): a box in the table's side panel with the Replay button
   * once the game is over; a link's ?replay=K&seat=N opens the replay at once. */
  T().parts.replay = function (p, ctx) {
    R.ctx = ctx;
    const q = new URLSearchParams(location.search);
    const asked = q.get("replay");
    if (!p.result) {
      return asked !== null ? el("p", { class: "replay-wait muted", id: "replay-wait" }, t("replay.running")) : null;
    }
    if (asked !== null && !R.auto && !R.open) {
      R.auto = true;
      const s = q.get("seat");
      const seat = s === null || s === "spectator" || s === "" ? null : Number(s);
      open(ctx, Math.max(0, Number(asked) || 0), Number.isInteger(seat) && seat >= 0 && seat < p.seats.length ? seat : null);
    } else if (R.open && R.data && R.data.lang !== T().util.lang) {
      R.olKey = null;
      load(R.at);  // the language was switched
    }
    // The end screen has its own Replay button; this box stands in while the end screen is hidden.
    if (T().parts.endScreen && !ctx.S.endClosed) return null;
    return el("section", { class: "replay-box", id: "replay-box", "aria-label": t("replay.title") },
      el("button", { type: "button", id: "replay-open", class: "primary",
        onclick: () => open(ctx, 0, p.viewer === undefined ? null : p.viewer) }, "▶ " + t("replay.open")),
      el("p", { class: "muted" }, t("replay.open_help")));
  };
})();
