/* tablero table part: the table's chat and the "your turn" alerts. Plain JavaScript, no build step.
 *
 * Chat (the server side is tablero/server/chat.py): on every new connection the part asks for
 * the history ({"type": "chat_history"}), then keeps the lines the server broadcasts
 * ({"type": "chat"}) and the creator's mutes ({"type": "chat_state"}). It draws into one
 * element that lives across the table's redraws (Tablero.parts.chat returns the same node each
 * time), so what the player is typing, the focus and the scroll position survive a move
 * arriving. Every text is set as text (textContent), never as HTML.
 *
 * Alerts: when one of this device's seats comes to act while the tab is hidden or not focused,
 * the tab's title and icon change (back on focus); a sound and a browser notification are the
 * player's choice (off by default, kept in localStorage), switched in the table's ⚙ menu
 * (Tablero.parts.alertSettings, a group app.js puts into that menu).
 */
"use strict";
(function () {
  const T = () => window.Tablero;
  const el = (...a) => T().util.el(...a);
  const t = (k, p) => T().util.t(k, p);
  const store = {
    get(key, dflt) { try { const v = JSON.parse(localStorage.getItem(key)); return v === null ? dflt : v; } catch (e) { return dflt; } },
    set(key, v) { localStorage.setItem(key, JSON.stringify(v)); },
  };

  // ------------------------------------------------------------------ chat
  const C = {
    ws: null,          // the socket the history was asked on (a new one asks again)
    mode: null,        // "players" | "all" | "off" (null until the history came)
    muted: [],         // seats the creator muted for the table (null: the spectators)
    max: 300,
    lines: [],         // {i, seat, name, text, time}
    mine: [],          // texts this device sent as a spectator, until their line comes back
    error: "",
    lastSent: "",
    p: null, ctx: null,
    root: null, dom: null, focused: false, stick: true, scroll: 0, muteOpen: false,
  };
  const gameKey = (what) => "tablero:" + what + ":" + (C.ctx ? C.ctx.id : document.body.dataset.id);
  const hiddenHere = () => store.get(gameKey("chatmute"), []);        // seats ("0", "spectators") hidden on this device
  const seatKey = (seat) => seat === null || seat === undefined ? "spectators" : String(seat);
  const localSeats = () => Object.keys(C.ctx ? C.ctx.S.payloads : {}).filter(k => k !== "spectator").map(Number);
  const isOpen = () => store.get("tablero:chatopen", window.matchMedia("(min-width: 821px)").matches);

  function isOwn(line) {
    if (line.seat !== null) return localSeats().includes(line.seat);
    return false;
  }
  function shown(line) { return !hiddenHere().includes(seatKey(line.seat)); }
  function seen() { return store.get(gameKey("chatseen"), -1); }
  function unread() { const s = seen(); return C.lines.filter(l => l.i > s && !l.own && shown(l)).length; }
  function markSeen() {
    if (!C.lines.length || !isOpen() || document.visibilityState === "hidden") return;
    const last = C.lines[C.lines.length - 1].i;
    if (last > seen()) store.set(gameKey("chatseen"), last);
  }

  function onMessage(msg, ctx) {
    C.ctx = ctx;
    if (msg.type === "update") {
      if (ctx.S.ws !== C.ws) {  // a new connection: ask for the history once
        C.ws = ctx.S.ws;
        ctx.send({ type: "chat_history" });
      }
      noteTurn(msg);
      return false;  // app.js draws the update
    }
    if (msg.type === "chat_history") {
      C.mode = msg.mode; C.muted = msg.muted; C.max = msg.max_chars || C.max;
      C.lines = msg.messages.map(l => Object.assign(l, { own: isOwn(l) }));
      render();
      return true;
    }
    if (msg.type === "chat") {
      let own = isOwn(msg);
      if (!own && msg.seat === null && C.mine.includes(msg.text)) { own = true; C.mine.splice(C.mine.indexOf(msg.text), 1); }
      msg.own = own;
      C.lines.push(msg);
      if (C.lines.length > 500) C.lines.shift();
      if (own) C.error = "";
      render();
      return true;
    }
    if (msg.type === "chat_state") { C.mode = msg.mode; C.muted = msg.muted; render(); return true; }
    if (msg.type === "error" && String(msg.code).startsWith("chat/")) {
      const key = "error." + msg.code;
      C.error = t(key, { max: C.max }) !== key ? t(key, { max: C.max }) : msg.message;
      const input = C.dom && C.dom.input;
      if (input && !input.value && C.lastSent) input.value = C.lastSent;  // refused: the text comes back to edit
      render();
      return true;
    }
    return false;
  }

  function canWrite(p) {
    if (C.mode === null || C.mode === "off") return false;
    if (p.viewer === null) return C.mode === "all" && !C.muted.includes(null);
    return !C.muted.includes(p.viewer);
  }

  function sendLine(ev) {
    ev.preventDefault();
    const p = C.p, input = C.dom.input;
    const text = input.value.trim();
    if (!text || !p) return;
    const msg = { type: "chat", seat: p.viewer, text };
    if (p.viewer === null) {
      msg.name = C.dom.name.value.trim();
      store.set("tablero:chatname", msg.name);
      C.mine.push(text);
    }
    C.lastSent = text;
    C.error = "";
    input.value = "";
    C.ctx.send(msg);
    render();
  }

  function chip(p, seat) {
    const s = seat === null ? null : p.seats[seat];
    if (!s) return el("span", { class: "chat-chip spectator", "aria-hidden": "true" }, "·");
    return el("span", { class: "chat-chip", style: "--seat:" + s.colour, "aria-hidden": "true" }, s.letter);
  }
  function nameOf(p, line) {
    if (line.seat !== null && p.seats[line.seat]) return p.seats[line.seat].name;  // names as they are now
    return (line.name || t("chat.spectator")) + (line.seat === null ? " " + t("chat.spectator_tag") : "");
  }
  function clock(time) {
    const d = new Date(time * 1000);
    return d.toLocaleTimeString(T().util.lang === "de" ? "de-DE" : "en-GB", { hour: "2-digit", minute: "2-digit" });
  }

  /* The part's element, made once: the input and the list stay in place across redraws. */
  function build() {
    const root = el("section", { class: "chat-part", id: "chat", "aria-label": t("chat.title") });
    const head = el("div", { class: "chat-head" });
    const list = el("ol", { class: "chat-list", "aria-live": "polite" });
    list.addEventListener("scroll", () => {
      if (!list.isConnected || !list.clientHeight) return;
      C.stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
      C.scroll = list.scrollTop;
    });
    const input = el("input", {
      id: "chat-input", type: "text", autocomplete: "off", enterkeyhint: "send",
    });
    const name = el("input", { id: "chat-name", type: "text", maxlength: "24", class: "chat-name-input" });
    name.value = store.get("tablero:chatname", "");
    const send = el("button", { type: "submit", id: "chat-send" });
    const form = el("form", { class: "chat-form", onsubmit: sendLine }, name, input, send);
    const note = el("p", { class: "chat-note muted", id: "chat-note" });
    const error = el("p", { class: "error chat-error", role: "alert", id: "chat-error" });
    const mute = el("div", { class: "chat-mute-slot" });
    const body = el("div", { class: "chat-body", id: "chat-body" }, list, form, note, error, mute);
    root.append(head, body);
    input.addEventListener("focus", () => { C.focused = true; });
    input.addEventListener("blur", () => {
      // A redraw takes the part out of the page for a moment (and puts the focus back); only a real
      // move of the focus elsewhere counts.
      setTimeout(() => { if (document.activeElement !== input && document.hasFocus()) C.focused = false; }, 0);
    });
    C.dom = { root, head, list, input, name, send, form, note, error, mute, body };
    return root;
  }

  /* The part: the same element each time, filled from C and the payload drawn. */
  function part(p, ctx) {
    C.p = p; C.ctx = ctx;
    if (!C.root) C.root = build();
    render();
    queueMicrotask(() => {
      const { input, list } = C.dom;
      if (!C.root.isConnected) return;
      list.scrollTop = C.stick ? list.scrollHeight : C.scroll;
      if (C.focused && document.activeElement !== input && !input.closest("[hidden]")) input.focus({ preventScroll: true });
    });
    return C.root;
  }

  function focusKey(node) {
    if (!node || !C.root || !C.root.contains(node)) return null;
    if (node.id) return "#" + node.id;
    if (node.dataset && node.dataset.seat !== undefined) return "input." + node.className + "[data-seat='" + node.dataset.seat + "']";
    return null;
  }

  function render() {
    const p = C.p;
    if (!p || !C.root) return;
    const D = C.dom;
    const refocus = focusKey(document.activeElement);
    markSeen();
    const open = isOpen();
    const chatOn = C.mode !== null && C.mode !== "off";
    const n = chatOn ? unread() : 0;
    D.root.setAttribute("aria-label", t("chat.title"));
    D.head.replaceChildren(
      chatOn ? el("button", {
        type: "button", class: "chat-toggle", id: "chat-toggle", "aria-expanded": String(open), "aria-controls": "chat-body",
        onclick: () => { store.set("tablero:chatopen", !open); C.stick = true; render(); },
      }, el("span", { class: "chat-caret", "aria-hidden": "true" }, open ? "▾" : "▸"), " ", t("chat.title"),
      n ? el("span", { class: "chat-unread", id: "chat-unread", title: t("chat.unread", { n }) }, String(n)) : null)
        : el("span", { class: "chat-title muted" }, C.mode === "off" ? t("chat.off") : ""));
    D.body.hidden = !chatOn || !open;
    D.root.classList.toggle("closed", !chatOn || !open);
    if (D.body.hidden) { refocusTo(refocus); return; }
    const visible = C.lines.filter(shown);
    const stick = C.stick;
    D.list.setAttribute("aria-label", t("chat.title"));
    D.list.replaceChildren(...(visible.length ? visible.map(l => el("li", { class: "chat-line" + (l.own ? " own" : ""), "data-i": l.i },
      chip(p, l.seat), " ",
      el("strong", { class: "chat-name" }, nameOf(p, l)), " ",
      el("time", { class: "chat-time", datetime: new Date(l.time * 1000).toISOString() }, clock(l.time)), " ",
      el("span", { class: "chat-text", text: l.text })))
      : [el("li", { class: "chat-empty muted" }, t("chat.empty"))]));
    if (stick && D.list.isConnected) D.list.scrollTop = D.list.scrollHeight;
    const write = canWrite(p);
    D.form.hidden = !write;
    D.input.maxLength = C.max;
    D.input.placeholder = t("chat.placeholder");
    D.input.setAttribute("aria-label", t("chat.placeholder"));
    D.name.hidden = p.viewer !== null;
    D.name.placeholder = t("chat.your_name");
    D.name.setAttribute("aria-label", t("chat.your_name"));
    D.send.textContent = t("chat.send");
    const muted = p.viewer !== null ? C.muted.includes(p.viewer) : C.muted.includes(null);
    D.note.hidden = write;
    D.note.textContent = write ? "" : muted ? t("chat.muted_you") : t("chat.players_only");
    D.error.hidden = !C.error;
    D.error.textContent = C.error;
    D.mute.replaceChildren(muteMenu(p, hiddenHere()));
    refocusTo(refocus);
  }

  function refocusTo(key) {
    if (!key || key === "#chat-input") return;
    const node = C.root.querySelector(key);
    if (node && document.activeElement !== node) node.focus({ preventScroll: true });
  }

  /* Mute: hide a seat's lines on this device; the creator also mutes a seat for the table. */
  function muteMenu(p, hidden) {
    const mineSeats = localSeats();
    const rows = [];
    const row = (seat, label) => {
      const key = seatKey(seat);
      const here = el("input", {
        type: "checkbox", class: "mute-here", "data-seat": key, checked: hidden.includes(key),
        onchange: (e) => {
          const h = hiddenHere().filter(k => k !== key);
          if (e.target.checked) h.push(key);
          store.set(gameKey("chatmute"), h);
          render();
        },
      });
      const cells = [el("span", { class: "mute-who" }, chip(p, seat), " ", label),
        el("label", {}, here, " ", t("chat.hide_here"))];
      if (p.admin) {
        cells.push(el("label", {}, el("input", {
          type: "checkbox", class: "mute-table", "data-seat": key, checked: C.muted.includes(seat),
          onchange: (e) => C.ctx.send({ type: "chat_mute", seat, muted: e.target.checked }),
        }), " ", t("chat.mute_table")));
      } else if (C.muted.includes(seat)) {
        cells.push(el("span", { class: "muted" }, t("chat.muted_by_creator")));
      }
      rows.push(el("li", {}, ...cells));
    };
    p.seats.forEach((s, i) => { if (!mineSeats.includes(i) && !s.bot) row(i, s.name); });
    if (C.mode === "all" || C.lines.some(l => l.seat === null)) row(null, t("chat.spectators"));
    if (!rows.length) return el("span");
    const d = el("details", { class: "chat-mute", id: "chat-mute", open: C.muteOpen },
      el("summary", { id: "chat-mute-summary" }, t("chat.mute")), el("ul", {}, rows));
    d.addEventListener("toggle", () => { C.muteOpen = d.open; });
    return d;
  }

  // ------------------------------------------------------------------ alerts
  const A = { mine: {}, was: false, on: false, title: null, icon: null, made: false, audio: null };
  const TURN_ICON = "/static/app/favicon-turn.svg";
  const settings = () => store.get("tablero:alerts", { sound: false, notify: false });

  function away() { return document.visibilityState === "hidden" || !document.hasFocus(); }

  /* Every update for a seat of this device: did one of them just come to act? */
  function noteTurn(msg) {
    if (msg.viewer === null || msg.viewer === undefined) return;
    const s = msg.seats[msg.viewer] || {};
    A.mine[msg.viewer] = !msg.result && msg.pending.includes(msg.viewer) && !s.bot;
    const now = Object.values(A.mine).some(Boolean);
    if (now && !A.was && away()) yourTurn(msg);
    if (!now && A.was) restore();
    A.was = now;
  }

  function iconLink() {
    let link = document.querySelector("link[rel~='icon']");
    if (!link) {
      link = el("link", { rel: "icon", type: "image/svg+xml", href: "/favicon.svg" });
      document.head.append(link);
      A.made = true;
    }
    return link;
  }

  function yourTurn(msg) {
    const game = msg.title || document.title;
    if (!A.on) { A.title = document.title; A.icon = iconLink().getAttribute("href"); }
    A.on = true;
    document.title = t("alert.title", { game });
    iconLink().setAttribute("href", TURN_ICON);
    const s = settings();
    if (s.sound) beep();
    if (s.notify && "Notification" in window && Notification.permission === "granted") {
      try {
        const name = (msg.seats[msg.viewer] || {}).name || "";
        const n = new Notification(t("alert.title", { game }), {
          body: t("alert.body", { name, game }), tag: "tablero-" + (C.ctx ? C.ctx.id : ""), icon: TURN_ICON,
        });
        n.onclick = () => { window.focus(); n.close(); };
      } catch (e) { /* some browsers allow notifications only from a service worker */ }
    }
  }

  function restore() {
    if (!A.on) return;
    A.on = false;
    document.title = A.title;
    const link = iconLink();
    if (A.made) { link.remove(); A.made = false; } else link.setAttribute("href", A.icon);
  }

  function back() {
    if (document.visibilityState === "hidden") return;
    restore();
    if (C.mode !== null && C.p) { markSeen(); render(); }
  }
  window.addEventListener("focus", back);
  document.addEventListener("visibilitychange", back);

  function beep() {
    try {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return;
      A.audio = A.audio || new AC();
      const ac = A.audio;
      if (ac.state === "suspended") ac.resume();
      const o = ac.createOscillator(), g = ac.createGain(), now = ac.currentTime;
      o.type = "sine";
      o.frequency.setValueAtTime(660, now);
      o.frequency.setValueAtTime(880, now + 0.12);
      g.gain.setValueAtTime(0.0001, now);
      g.gain.exponentialRampToValueAtTime(0.25, now + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, now + 0.35);
      o.connect(g); g.connect(ac.destination);
      o.start(now); o.stop(now + 0.4);
    } catch (e) { /* no sound on this device */ }
  }

  /* The alerts' switches: a group in the table's ⚙ menu (app.js settingsMenu asks for it each time
   * it makes the menu). The browser's permission is asked only when the player switches
   * notifications on. */
  function alertSettings() {
    const s = settings();
    const save = (k, v) => { const x = settings(); x[k] = v; store.set("tablero:alerts", x); };
    const notifyOk = "Notification" in window;
    const note = el("p", { class: "error", role: "alert", id: "alert-note", hidden: true });
    return el("fieldset", { class: "settings-group alert-settings", id: "settings-alerts" },
      el("legend", {}, t("alert.menu")),
      el("p", { class: "muted" }, t("alert.always")),
      el("label", {}, el("input", {
        type: "checkbox", id: "alert-sound", checked: !!s.sound,
        onchange: (e) => { save("sound", e.target.checked); if (e.target.checked) beep(); },  // a tap starts the sound
      }), " ", t("alert.sound")),
      el("label", {}, el("input", {
        type: "checkbox", id: "alert-notify", checked: !!s.notify && notifyOk && Notification.permission === "granted",
        disabled: !notifyOk,
        onchange: async (e) => {
          const box = e.target, on = box.checked;
          note.hidden = true; note.textContent = "";
          if (on && Notification.permission !== "granted") {
            const answer = Notification.permission === "denied" ? "denied" : await Notification.requestPermission();
            if (answer !== "granted") {
              save("notify", false); box.checked = false;
              note.textContent = t("alert.denied"); note.hidden = false;
              return;
            }
          }
          save("notify", on);
        },
      }), " ", t("alert.notify")),
      note);
  }

  T().parts.chat = part;
  T().parts.alertSettings = alertSettings;
  T().on = T().on || {};
  T().on.chat = onMessage;
})();
