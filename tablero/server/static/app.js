/* tablero web client: lobby, join page and table. Plain JavaScript, no build step.
 *
 * The table speaks to the server over one WebSocket. Every update it receives is one
 * viewer's payload (built by the server from that seat's observation; the wire shape is in
 * tablero/server/payload.py). A device may hold several seats (hot-seat): it then shows one
 * seat at a time, with a hand-over screen that hides the previous player's table before the
 * next player looks. The game's board.js draws the board with a kit from boardkit.js.
 */
"use strict";
(function () {
  const LANGS = ["en", "de"];
  let lang = localStorage.getItem("tablero:lang") ||
    ((navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en");
  if (!LANGS.includes(lang)) lang = "en";
  let UI = {};

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function t(key, params) {
    let s = UI[key] || key;
    for (const [k, v] of Object.entries(params || {})) s = s.split("{" + k + "}").join(String(v));
    return s;
  }
  /* A bot's name as people read it: the levels in words ("medium" → "mittel"), others as they are. */
  function botLabel(name) { return UI["bot." + name] || name; }

  async function api(method, url, body) {
    const r = await fetch(url, {
      method, headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error((data.error && data.error.message) || r.statusText);
    return data;
  }

  async function loadUI() {
    UI = await api("GET", "/api/i18n/" + lang);
    document.documentElement.lang = lang;
  }

  function langSwitch(onChange) {
    const nav = el("nav", { class: "langs", "aria-label": "Language / Sprache" });
    for (const l of LANGS) {
      nav.append(el("button", {
        class: l === lang ? "lang active" : "lang", type: "button", "aria-pressed": String(l === lang),
        onclick: async () => { lang = l; localStorage.setItem("tablero:lang", l); await loadUI(); onChange(); },
      }, l === "de" ? "Deutsch" : "English"));
    }
    return nav;
  }

  // ---------------------------------------------------------------- stored seats
  function saved(id) {
    try { return JSON.parse(localStorage.getItem("tablero:game:" + id)) || { tokens: [], admin: null }; }
    catch (e) { return { tokens: [], admin: null }; }
  }
  function save(id, data) { localStorage.setItem("tablero:game:" + id, JSON.stringify(data)); }
  function tableLink(id, data) {
    const h = "t=" + (data.tokens || []).join(",") + (data.admin ? "&a=" + data.admin : "");
    return "/game/" + id + "#" + h;
  }

  // ---------------------------------------------------------------- lobby
  async function lobby() {
    await loadUI();
    const meta = await api("GET", "/api/meta");
    const draw = () => {
      document.getElementById("langs").replaceWith(Object.assign(langSwitch(draw), { id: "langs" }));
      document.querySelector(".intro p").textContent = t("lobby.intro");
      document.querySelector("#create h2").textContent = t("lobby.create");
      document.querySelectorAll(".card h2")[1].textContent = t("lobby.games");
      drawForm(meta);
      listGames();
    };
    draw();
    setInterval(listGames, 5000);
  }

  function drawForm(meta) {
    const form = document.getElementById("create-form");
    form.replaceChildren();
    const state = { game: meta.games[0].id, players: 0 };
    const gameSel = el("select", { id: "f-game", name: "game" },
      meta.games.map(g => el("option", { value: g.id }, g.title)));
    const playersSel = el("select", { id: "f-players", name: "players" });
    const opts = el("div", { class: "options" });
    const seats = el("div", { class: "seats" });
    const clock = el("input", { id: "f-clock", type: "number", min: "0", step: "5", value: "0" });
    const away = el("input", { id: "f-away", type: "number", min: "0", step: "10", value: "60" });
    const hints = el("input", { id: "f-hints", type: "checkbox" });
    const standIn = el("select", { id: "f-standin" });
    const game = () => meta.games.find(g => g.id === gameSel.value);
    function fillPlayers() {
      const g = game();
      playersSel.replaceChildren(...Array.from({ length: g.max_players - g.min_players + 1 },
        (_, i) => el("option", { value: g.min_players + i }, String(g.min_players + i))));
      playersSel.value = String(Math.max(g.min_players, Math.min(g.max_players, 3)));
      opts.replaceChildren(...g.options.map(o => {
        let input;
        if (typeof o.default === "boolean") {
          input = el("input", { type: "checkbox", name: "opt:" + o.name, id: "opt-" + o.name, checked: o.default });
        } else if (o.choices.length) {
          input = el("select", { name: "opt:" + o.name, id: "opt-" + o.name },
            o.choices.map(c => el("option", { value: c, selected: String(o.default) === c }, c)));
        } else {
          input = el("input", { name: "opt:" + o.name, id: "opt-" + o.name, value: String(o.default) });
        }
        return el("label", { class: "opt", title: o.help }, el("span", {}, o.name), input);
      }));
      fillSeats();
    }
    function fillSeats() {
      const g = game();
      const n = Number(playersSel.value);
      const kinds = [["you", t("seat.you")], ["local", t("seat.local")], ["person", t("seat.person")]]
        .concat(g.bots.map(b => ["bot:" + b, t("seat.bot", { bot: botLabel(b) })]));
      const dflt = g.bots.includes(g.default_bot) ? g.default_bot : g.bots[0];
      seats.replaceChildren(...Array.from({ length: n }, (_, i) => el("div", { class: "seat-row" },
        el("span", { class: "seat-chip seat-" + i }, String.fromCharCode(65 + i)),
        el("select", { name: "kind" + i, id: "f-kind-" + i, "aria-label": t("seat.kind", { n: i + 1 }) },
          kinds.map(([v, label]) => el("option", {
            value: v, selected: i === 0 ? v === "you" : v === "bot:" + dflt,
          }, label))),
        el("input", { name: "name" + i, id: "f-name-" + i, placeholder: t("seat.name"), maxlength: "24",
          "aria-label": t("seat.name") }))));
    }
    function fillStandIn() {
      const g = game();
      const pick = g.bots.includes("greedy") ? "greedy" : g.bots[0];
      standIn.replaceChildren(...g.bots.map(b => el("option", { value: b, selected: b === pick }, botLabel(b))));
    }
    gameSel.addEventListener("change", fillStandIn);
    gameSel.addEventListener("change", fillPlayers);
    playersSel.addEventListener("change", fillSeats);
    form.append(
      el("label", {}, el("span", {}, t("lobby.game")), gameSel),
      el("label", {}, el("span", {}, t("lobby.players")), playersSel),
      el("fieldset", {}, el("legend", {}, t("lobby.options")), opts),
      el("fieldset", {}, el("legend", {}, t("lobby.seats")), seats),
      el("label", { class: "check" }, hints, el("span", {}, t("lobby.hints"))),
      el("details", {}, el("summary", {}, t("lobby.more")),
        el("label", {}, el("span", {}, t("lobby.clock")), clock),
        el("label", {}, el("span", {}, t("lobby.stand_in")), standIn),
        el("label", {}, el("span", {}, t("lobby.away")), away)),
      el("button", { type: "submit", id: "f-create", class: "primary" }, t("lobby.start")),
      el("p", { class: "error", id: "f-error", role: "alert" }));
    fillStandIn();
    fillPlayers();
    form.onsubmit = async (ev) => {
      ev.preventDefault();
      const g = game();
      const options = {};
      for (const o of g.options) {
        const input = document.getElementById("opt-" + o.name);
        const value = input.type === "checkbox" ? input.checked : input.value;
        if (String(value) !== String(o.default)) options[o.name] = value;  // only what the player changed
      }
      const seatList = [];
      for (let i = 0; i < Number(playersSel.value); i++) {
        const k = document.getElementById("f-kind-" + i).value;
        const name = document.getElementById("f-name-" + i).value;
        seatList.push(k.startsWith("bot:") ? { kind: "bot", bot: k.slice(4), name } : { kind: k, name });
      }
      try {
        const res = await api("POST", "/api/games", {
          game: g.id, options, seats: seatList,
          move_seconds: Number(clock.value) || 0, away_seconds: Number(away.value) || 0,
          hints: hints.checked, stand_in: standIn.value,
        });
        const data = { tokens: Object.values(res.tokens), admin: res.admin };
        save(res.id, data);
        const invites = Object.entries(res.invites);
        if (!invites.length) { location.href = tableLink(res.id, data); return; }
        const box = document.getElementById("created");
        box.hidden = false;
        box.replaceChildren(el("h2", {}, t("lobby.invites")),
          el("p", {}, t("lobby.invites_help")),
          el("ul", { class: "invites" }, invites.map(([seat, inv]) => {
            const url = location.origin + "/join/" + res.id + "/" + inv;
            return el("li", {}, el("span", { class: "seat-chip seat-" + seat }, String.fromCharCode(65 + Number(seat))),
              el("input", { readonly: true, value: url, class: "invite", "data-seat": seat, onfocus: (e) => e.target.select() }),
              el("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(url) }, t("lobby.copy")));
          })),
          el("a", { href: tableLink(res.id, data), class: "button primary", id: "go-table" }, t("lobby.go")));
      } catch (e) {
        document.getElementById("f-error").textContent = e.message;
      }
    };
  }

  async function listGames() {
    const box = document.getElementById("game-list");
    if (!box) return;
    let data;
    try { data = await api("GET", "/api/games"); } catch (e) { return; }
    if (!data.games.length) { box.replaceChildren(el("p", { class: "muted" }, t("lobby.none"))); return; }
    box.replaceChildren(el("ul", { class: "games" }, data.games.map(g => {
      const mine = saved(g.id).tokens.length > 0;
      const status = g.status === "over" ? t("status.over") : g.open_seats.length
        ? t("status.open", { n: g.open_seats.length }) : t("status.running");
      return el("li", {}, el("strong", {}, g.title), " ", el("span", {}, g.players.join(", ")), " ",
        el("span", { class: "muted" }, status), " ",
        el("a", { href: mine ? tableLink(g.id, saved(g.id)) : "/game/" + g.id }, mine ? t("lobby.resume") : t("lobby.watch")));
    })));
  }

  // ---------------------------------------------------------------- join
  async function join() {
    await loadUI();
    const id = document.body.dataset.id;
    const invite = location.pathname.split("/").pop();
    const box = document.getElementById("join");
    const name = el("input", { id: "j-name", placeholder: t("seat.name"), maxlength: "24", "aria-label": t("seat.name") });
    const err = el("p", { class: "error", role: "alert" });
    box.replaceChildren(el("p", {}, t("join.text")), name,
      el("button", {
        id: "j-go", class: "primary", onclick: async () => {
          try {
            const res = await api("POST", "/api/games/" + id + "/claim", { invite, name: name.value });
            const data = saved(id);
            data.tokens = Array.from(new Set(data.tokens.concat([res.token])));
            save(id, data);
            location.replace(tableLink(id, data));
          } catch (e) { err.textContent = e.message; }
        },
      }, t("join.go")), err);
  }

  // ---------------------------------------------------------------- table
  async function table() {
    await loadUI();
    const id = document.body.dataset.id;
    const gameId = document.body.dataset.game;
    const data = saved(id);
    const h = new URLSearchParams(location.hash.slice(1));
    if (h.get("t")) data.tokens = Array.from(new Set(data.tokens.concat(h.get("t").split(",").filter(Boolean))));
    if (h.get("a")) data.admin = h.get("a");
    save(id, data);
    const S = {
      id, gameId, payloads: {}, logs: {}, active: null, shown: null, filter: null, picked: null, ws: null,
      cat: {}, tableData: {}, error: "", status: "connecting", retry: 0, handover: false,
      thinking: null,  // {seat, bot, start}: a bot's search running now (start: this clock's ms)
      hint: null,      // {seat, version, text, label}: "What would the bot play?" (text null while asked)
      review: null,    // {seat, status: running|done|error, done, total, data, error}
      logFocus: null,  // the record entry whose log lines a review points at
      endClosed: false,
    };
    const app = document.getElementById("app");
    S.cat = await api("GET", "/api/catalogue/" + gameId + "/" + lang);
    S.tableData = await api("GET", "/api/table-data/" + gameId);
    S.meta = (await api("GET", "/api/meta")).games.find(g => g.id === gameId) || null;

    function send(msg) {
      if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(msg));
    }
    function connect() {
      const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + id);
      S.ws = ws;
      ws.onopen = () => {
        S.status = "live"; S.retry = 0; S.logs = {};
        ws.send(JSON.stringify({ type: "hello", tokens: data.tokens, admin: data.admin, lang }));
      };
      ws.onmessage = (ev) => {
        const msg = JSON.parse(ev.data);
        if (msg.type === "error") {
          const text = UI["error." + msg.code] || msg.message;
          if (String(msg.code).startsWith("review/") && S.review && S.review.status === "running") {
            S.review.status = "error"; S.review.error = text;
          } else {
            if (String(msg.code).startsWith("hint/")) S.hint = null;
            S.error = text;
          }
          draw(); return;
        }
        if (msg.type === "hint") {
          if (S.hint && S.hint.seat === msg.seat && S.hint.version === msg.version) {
            S.hint.text = msg.text; S.hint.label = msg.label; draw();
          }
          return;
        }
        if (msg.type === "review_progress") {
          if (S.review && S.review.seat === msg.seat && S.review.status === "running") {
            S.review.done = msg.done; S.review.total = msg.total; reviewProgress();
          }
          return;
        }
        if (msg.type === "review") {
          if (S.review && S.review.seat === msg.seat) {
            S.review = { seat: msg.seat, status: "done", data: msg.review };
            draw();
            const r = document.getElementById("review"); if (r) r.scrollIntoView({ block: "start" });
          }
          return;
        }
        if (msg.type !== "update") return;
        noteThinking(msg);
        const key = msg.viewer === null ? "spectator" : String(msg.viewer);
        const log = msg.log_since === 0 ? [] : (S.logs[key] || []);
        const prev = S.payloads[key];
        for (const line of log) line.fresh = false;
        for (const line of msg.log) { line.fresh = msg.log_since > 0; log.push(line); }
        S.logs[key] = log.slice(-400);
        S.payloads[key] = msg;
        if (prev && prev.version !== msg.version) { S.filter = null; S.picked = null; S.error = ""; S.hint = null; }
        pickActive();
        draw();
      };
      ws.onclose = () => {
        S.status = "offline"; draw();
        S.retry = Math.min(S.retry + 1, 6);
        setTimeout(connect, 300 * S.retry);
      };
    }

    /* A bot's search: the server says how long it has run; the timer runs on from there. */
    function noteThinking(msg) {
      const th = msg.thinking;
      if (!th) { S.thinking = null; return; }
      if (S.thinking && S.thinking.seat === th.seat && S.thinking.version === msg.version) return;
      S.thinking = { seat: th.seat, bot: th.bot, version: msg.version, start: Date.now() - th.seconds * 1000 };
    }
    function secs(x) { return x < 1 ? x.toFixed(2) : x.toFixed(1); }
    function thinkText(start) {
      return t("seat.thinking_for", { s: (Math.max(0, Date.now() - start) / 1000).toFixed(1) });
    }
    setInterval(() => {
      for (const e of document.querySelectorAll(".think-timer")) e.textContent = thinkText(Number(e.dataset.start));
    }, 100);

    function localSeats() { return Object.keys(S.payloads).filter(k => k !== "spectator").map(Number); }
    function pickActive() {
      const mine = localSeats();
      if (!mine.length) { S.active = "spectator"; return; }
      const any = S.payloads[String(mine[0])];
      const pending = mine.filter(s => any.pending.includes(s) && !any.seats[s].bot);
      let next = S.active;
      if (next === null || next === "spectator" || !mine.includes(Number(next))) next = String(mine[0]);
      if (pending.length && !pending.includes(Number(next))) next = String(pending[0]);
      if (mine.length > 1 && S.shown !== null && next !== S.shown) S.handover = true;
      S.active = next;
    }

    function logKey(p) { return p.viewer === null ? "spectator" : String(p.viewer); }

    /* The kit a board draws with (boardkit.js): this viewer's payload, words and log. */
    function boardKit(root, p) {
      return BoardKit.create(root, p, {
        lang, cat: S.cat, data: S.tableData, log: S.logs[logKey(p)] || [], ui: t,
        filter: S.filter, picked: S.picked,
        choose: (texts, pick) => {
          const legal = new Set(p.legal.map(l => l.text));
          const ok = (texts || []).filter(x => legal.has(x));
          if (ok.length === 1) act(ok[0]);
          else if (ok.length > 1) {
            S.filter = ok; S.picked = pick === undefined ? null : pick; draw();
            const f = document.querySelector(".moves button"); if (f) f.focus();
          }
        },
        unpick: () => { S.filter = null; S.picked = null; draw(); },
      });
    }

    function act(text) {
      const p = S.payloads[S.active];
      S.filter = null;
      S.picked = null;
      send({ type: "act", seat: p.viewer, version: p.version, action: text });
    }

    function draw() {
      const p = S.payloads[S.active];
      const focused = BoardKit.focusKey(app.querySelector(".board"));
      app.replaceChildren();
      const header = el("header", { class: "top" },
        el("h1", {}, el("a", { href: "/", class: "home" }, "tablero"), " · ", document.title.split(" — ")[0]),
        el("span", { class: "conn " + S.status, role: "status" }, t("conn." + S.status)),
        langSwitch(async () => { S.cat = await api("GET", "/api/catalogue/" + gameId + "/" + lang); reconnect(); }));
      app.append(header);
      if (!p) { app.append(el("p", { class: "loading" }, t("conn.connecting"))); if (S.error) app.append(el("p", { class: "error", role: "alert" }, S.error)); return; }
      app.dataset.version = "";
      if (S.handover) {
        const name = p.seats[p.viewer].name;
        app.append(el("section", { class: "handover card", role: "dialog", "aria-modal": "true" },
          el("h2", {}, t("handover.title", { name })),
          el("p", {}, t("handover.text", { name })),
          el("button", {
            class: "primary", id: "handover-go", onclick: () => { S.handover = false; S.shown = S.active; draw(); },
          }, t("handover.go", { name }))));
        const b = document.getElementById("handover-go"); if (b) b.focus();
        return;
      }
      S.shown = S.active;
      app.dataset.version = String(p.version);
      app.dataset.viewer = String(p.viewer);
      app.append(seatBar(p));
      const main = el("div", { class: "layout" });
      const boardBox = el("section", { class: "board", "aria-label": t("table.board") });
      const side = el("aside", { class: "side" });
      main.append(boardBox, side);
      app.append(main);
      const presenter = (window.TableroBoards || {})[gameId];
      try {
        if (presenter) presenter.render(boardBox, p, boardKit(boardBox, p));
        else boardBox.append(el("pre", {}, JSON.stringify(p.view, null, 1)));
        BoardKit.refocus(boardBox, focused);
      } catch (e) {
        boardBox.append(el("p", { class: "error" }, "board: " + e.message));
        console.error(e);
      }
      side.append(turnBox(p), movesBox(p), adminBox(p), logBox(p));
      if (S.review) app.append(reviewPanel(p));
      if (p.result && !S.endClosed) app.append(endScreen(p));
    }

    function reconnect() { if (S.ws) { S.ws.onclose = null; S.ws.close(); } S.payloads = {}; connect(); draw(); }

    function seatBar(p) {
      const score = (i) => {
        const v = p.view.public || p.view;  // views have a public part (every seat sees the same)
        for (const k of ["scores", "vp", "score"]) if (Array.isArray(v[k])) return v[k][i];
        return null;
      };
      const thinking = (i) => !p.result && p.pending.includes(i) && p.seats[i].bot;
      const searching = (i) => S.thinking && S.thinking.seat === i && thinking(i);
      const thought = (i) => !searching(i) && (p.thought || {})[String(i)];
      return el("ol", { class: "seatbar", "aria-label": t("table.seats") }, p.seats.map((s, i) => el("li", {
        class: "seat seat-" + i + (p.pending.includes(i) ? " to-act" : "") + (i === p.viewer ? " me" : "") +
          (thinking(i) ? " thinking" : ""),
        style: "--seat:" + s.colour,
      },
        el("span", { class: "letter", "aria-hidden": "true" }, s.letter),
        el("span", { class: "name" }, s.name),
        s.bot ? el("span", { class: "tag" }, t("seat.botname", { bot: botLabel(s.bot) })) : null,
        thinking(i) ? el("span", { class: "bk-dots", title: t("seat.thinking") }, el("i"), el("i"), el("i")) : null,
        searching(i) ? el("span", { class: "think-timer", role: "timer", "data-start": String(S.thinking.start) },
          thinkText(S.thinking.start)) : null,
        thought(i) ? el("span", {
          class: "thought", "data-seat": i,
          title: t("seat.thought_title", { name: s.name, s: secs(thought(i).seconds) }),
        }, t("seat.thought", { s: secs(thought(i).seconds) })) : null,
        !s.connected && !s.bot ? el("span", { class: "tag away" }, s.claimed ? t("seat.away") : t("seat.invited")) : null,
        score(i) !== null ? el("span", { class: "score", title: t("table.score") }, String(score(i))) : null,
        p.clocks[String(i)] !== undefined ? el("span", { class: "clock" }, Math.ceil(p.clocks[String(i)]) + " s") : null,
        p.pending.includes(i) ? el("span", { class: "sr" }, t("table.to_act")) : null,
      )));
    }

    function turnBox(p) {
      const box = el("div", { class: "turn", role: "status", "aria-live": "polite" });
      if (p.result) { box.append(t("table.over")); return box; }
      const mine = p.viewer !== null && p.pending.includes(p.viewer) && !p.seats[p.viewer].bot;
      box.classList.toggle("mine", mine);
      box.append(mine ? t("table.your_turn", { name: p.seats[p.viewer].name })
        : t("table.waiting", { names: p.pending.map(i => p.seats[i].name).join(", ") }));
      if (S.error) box.append(el("p", { class: "error", role: "alert" }, S.error));
      return box;
    }

    function movesBox(p) {
      const box = el("div", { class: "moves-box" });
      if (p.viewer === null) return box;
      const seat = p.seats[p.viewer];
      if (seat.replaced) {
        box.append(el("button", { id: "reclaim", onclick: () => send({ type: "reclaim", seat: p.viewer }) }, t("table.reclaim")));
        return box;
      }
      const list = S.filter ? p.legal.filter(l => S.filter.includes(l.text)) : p.legal;
      const hint = S.hint && S.hint.seat === p.viewer && S.hint.version === p.version ? S.hint : null;
      const hinted = hint && hint.text ? hint.text : null;
      if (list.length) {
        box.append(el("h2", {}, t("table.moves")));
        if (S.filter) box.append(el("button", { class: "link", id: "all-moves", onclick: () => { S.filter = null; S.picked = null; draw(); } }, t("table.all_moves")));
        box.append(el("ul", { class: "moves" }, list.map((l, i) => el("li", {},
          el("button", {
            type: "button", class: "move" + (l.text === hinted ? " hinted" : ""), "data-action": l.text,
            onclick: () => act(l.text),
          },
            i < 9 ? el("kbd", {}, String(i + 1)) : null, " ", l.label,
            l.text === hinted ? el("span", { class: "hint-mark" }, t("table.hint_mark")) : null)))));
      }
      if (p.hints && p.legal.length) {
        if (hint) {
          box.append(el("p", { class: "hint-says", id: "hint-says", role: "status" },
            hint.text ? t("table.hint_says", { move: hint.label }) : t("table.hint_wait")));
        }
        box.append(el("button", {
          id: "hint", type: "button", disabled: !!(hint && !hint.text),
          onclick: () => {
            S.hint = { seat: p.viewer, version: p.version, text: null, label: null };
            send({ type: "hint", seat: p.viewer, version: p.version });
            draw();
          },
        }, t("table.hint")));
      }
      const tools = el("div", { class: "tools" });
      if (p.can_undo) tools.append(el("button", { id: "undo", onclick: () => send({ type: "undo", seat: p.viewer, version: p.version }) }, t("table.undo")));
      if (!p.result) tools.append(el("button", { class: "link", id: "leave", onclick: () => { if (confirm(t("table.leave_q"))) send({ type: "leave", seat: p.viewer }); } }, t("table.leave")));
      box.append(tools);
      return box;
    }

    function adminBox(p) {
      const box = el("div", { class: "admin" });
      if (!p.admin || p.result) return box;
      p.seats.forEach((s, i) => {
        if (s.kind === "bot" || s.bot) return;
        const gone = s.left || (s.away !== null && s.away >= p.away_seconds);
        if (!gone) return;
        const levels = ((S.meta && S.meta.bots) || ["greedy"]);
        const level = el("select", { class: "replace-level", "data-seat": i, "aria-label": t("admin.level") },
          levels.map(b => el("option", { value: b, selected: b === ((S.meta && S.meta.default_bot) || "greedy") }, botLabel(b))));
        box.append(el("p", {}, t("admin.gone", { name: s.name }), " ", level, " ",
          el("button", { class: "replace", "data-seat": i, onclick: () => send({ type: "replace", seat: i, bot: level.value }) }, t("admin.replace"))));
      });
      return box;
    }

    function logBox(p) {
      const lines = S.logs[logKey(p)] || [];
      const ol = el("ol", { class: "log", "aria-label": t("table.log") });
      let fresh = 0;
      const focus = S.review && S.review.status === "done" ? S.logFocus : null;
      const shown = focus === null ? lines.slice(-150) : lines;
      for (const l of shown) {
        const cls = [l.fresh ? "fresh" : "", l.note ? "note" : "", l.i === focus ? "focus" : ""].filter(Boolean).join(" ");
        const li = el("li", { class: cls, "data-i": l.i }, l.text);
        if (l.fresh) li.style.animationDelay = (Math.min(fresh++, 20) * 120) + "ms";
        ol.append(li);
      }
      const box = el("div", { class: "log-box" }, el("h2", {}, t("table.log")), ol);
      setTimeout(() => {
        const f = focus === null ? null : ol.querySelector("li.focus");
        if (f) ol.scrollTop = Math.max(0, f.offsetTop - ol.clientHeight / 3); else ol.scrollTop = ol.scrollHeight;
      }, 0);
      return box;
    }

    function endScreen(p) {
      const r = p.result;
      const order = p.seats.map((s, i) => i).sort((a, b) => r.ranks[a] - r.ranks[b]);
      const box = el("section", { class: "end card", id: "end", role: "dialog", "aria-label": t("end.title") },
        el("h2", {}, t("end.title")),
        el("p", { class: "winners" }, r.winners.length ? t("end.winners", { names: r.winners.map(i => p.seats[i].name).join(", ") }) : t("end.nobody")),
        el("ol", { class: "ranks" }, order.map(i => el("li", { class: "seat-" + i, style: "--seat:" + p.seats[i].colour },
          el("span", { class: "letter" }, p.seats[i].letter), " ", r.ranks[i] + ". " + p.seats[i].name + " — " + r.scores[i]))),
        reviewPicker(p, "end"),
        el("a", { href: "/api/games/" + id + "/record", download: "tablero-" + id + ".json" }, t("end.record")), " ",
        data.tokens.length ? el("button", { id: "rematch", class: "primary", onclick: rematch }, t("end.rematch")) : null,
        el("button", { class: "link", id: "end-close", onclick: () => { S.endClosed = true; draw(); } }, t("end.close")));
      return box;
    }

    /* "Review this game": your own seat first; once the game is over, any seat. */
    function reviewPicker(p, where) {
      const own = S.review ? S.review.seat : p.viewer !== null ? p.viewer : 0;
      const ids = where === "panel" ? ["review-seat-again", "review-again"] : ["review-seat", "review-open"];
      const pick = el("select", { id: ids[0], "aria-label": t("review.seat") },
        p.seats.map((s, i) => el("option", { value: i, selected: i === own }, s.letter + " · " + s.name)));
      return el("div", { class: "review-pick" },
        el("label", {}, el("span", {}, t("review.seat")), " ", pick), " ",
        el("button", {
          id: ids[1], type: "button", disabled: !!(S.review && S.review.status === "running"),
          onclick: () => startReview(Number(pick.value)),
        }, t("review.open")));
    }

    function startReview(seat) {
      S.review = { seat, status: "running", done: 0, total: 0 };
      S.logFocus = null;
      S.endClosed = true;
      send({ type: "review", seat });
      draw();
      const r = document.getElementById("review"); if (r) r.scrollIntoView({ block: "start" });
    }

    function reviewProgress() {
      const R = S.review;
      const pct = R.total ? Math.floor(100 * R.done / R.total) : 0;
      const bar = document.querySelector("#review progress"), txt = document.getElementById("review-status");
      if (!bar || !txt) { draw(); return; }
      bar.value = pct; txt.textContent = t("review.running", { pct });
    }

    /* Each decision of the seat: entry, the move played, the bot's best, the loss in winning
     * chances (percentage points) and the top options; the biggest mistake marked. */
    function reviewPanel(p) {
      const R = S.review;
      const name = (p.seats[R.seat] || {}).name || "?";
      const box = el("section", { class: "review card", id: "review", "aria-label": t("review.title", { name }) },
        el("div", { class: "review-head" }, el("h2", {}, t("review.title", { name })),
          el("button", { class: "link", id: "review-close", onclick: () => { S.review = null; S.logFocus = null; draw(); } },
            t("review.close"))),
        p.result ? reviewPicker(p, "panel") : null);
      if (R.status === "running") {
        const pct = R.total ? Math.floor(100 * R.done / R.total) : 0;
        box.append(el("p", { id: "review-status", role: "status" }, t("review.running", { pct })),
          el("progress", { max: "100", value: String(pct) }));
        return box;
      }
      if (R.status === "error") { box.append(el("p", { class: "error", role: "alert" }, R.error)); return box; }
      const d0 = R.data.decisions;
      if (!d0.length) { box.append(el("p", {}, t("review.none", { name }))); return box; }
      const pp = (x) => (Math.round(x * 1000) / 10).toFixed(1);
      box.append(el("p", { class: "muted" }, t("review.help", { name })));
      box.append(el("ol", { class: "review-list" }, d0.map(d => {
        const worst = d.index === R.data.worst;
        return el("li", {
          class: "decision" + (worst ? " worst" : "") + (d.loss > 0 ? "" : " good") + (S.logFocus === d.index ? " focus" : ""),
          "data-index": d.index,
        },
          el("div", { class: "d-head" },
            el("button", {
              type: "button", class: "link d-index", title: t("review.log"),
              onclick: () => { S.logFocus = d.index; draw(); },
            }, t("review.entry") + " " + (d.index + 1)),  // entries count from 0, people from 1
            worst ? el("strong", { class: "worst-tag" }, t("review.worst")) : null,
            el("span", { class: "loss", title: t("review.loss") }, d.loss > 0 ? "−" + pp(d.loss) + " %" : t("review.good"))),
          el("dl", {},
            el("dt", {}, t("review.chosen")), el("dd", { class: "chosen" }, d.chosen_label || d.chosen),
            d.best !== d.chosen ? el("dt", {}, t("review.best")) : null,
            d.best !== d.chosen ? el("dd", { class: "best" }, d.best_label || d.best) : null,
            el("dt", {}, t("review.options")),
            el("dd", {}, el("ol", { class: "opts" }, d.options.slice(0, 3).map(o => el("li", {
              class: o.text === d.chosen ? "played" : "",
            }, el("span", { class: "v" }, pp(o.value) + " %"), " ", o.label || o.text))))));
      })));
      return box;
    }

    async function rematch() {
      try {
        const res = await api("POST", "/api/games/" + id + "/rematch", { tokens: data.tokens });
        const nd = { tokens: Object.values(res.tokens), admin: null };
        save(res.id, nd);
        location.href = tableLink(res.id, nd);
      } catch (e) { S.error = e.message; draw(); }
    }

    /* What the table's parts (Tablero.parts, from the other scripts) may use. */
    const ctx = { S, id, gameId, data, app, send, draw: () => draw(), act, kit: (root, p) => boardKit(root, p) };
    window.Tablero.ctx = ctx;

    document.addEventListener("keydown", (e) => {
      if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
      if (/^[1-9]$/.test(e.key)) {
        const b = document.querySelectorAll(".moves button.move")[Number(e.key) - 1];
        if (b) { e.preventDefault(); b.click(); }
      } else if (e.key === "u" || e.key === "U") {
        const b = document.getElementById("undo"); if (b) b.click();
      } else if (e.key === "h" || e.key === "H") {
        const b = document.getElementById("hint"); if (b && !b.disabled) { e.preventDefault(); b.click(); }
      }
    });
    setInterval(() => { if (S.ws && S.ws.readyState === 1) send({ type: "ping" }); }, 20000);
    connect();
    draw();
  }

  /* Shared with the client's other scripts (chat.js, endscreen.js, replay.js, ...), which load
   * after this one and add their parts to Tablero.parts: each part is a function the table
   * calls with (payload, ctx). */
  window.Tablero = {
    lobby, table, join, parts: {},
    util: { el, t, api, botLabel, saved, save, langSwitch, loadUI, get lang() { return lang; } },
  };
})();
